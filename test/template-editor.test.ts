import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '@/server/routers/types';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { startTestApp, type TestApp } from './support/app';
import { dashboardCall, signUpPerson } from './support/dashboard-session';
import { keyFor } from './support/keys';
import { sendingOrg } from './support/sending-org';
import { startMxServer, type MxServer } from './support/smtp-mx';

/**
 * The template editor's two procedures (dashboard only, no REST path; docs/templates.md, "The
 * editor"): `templates.previewContent`, the content as it is being written rendered with sample
 * variables, and `templates.sendTest`, that content sent to one address through POST /emails'
 * send path, in the caller's mode. Asked as the dashboard asks them (POST, method override).
 */
let app: TestApp;
let mx: MxServer;
beforeAll(async () => {
  mx = await startMxServer();
  app = await startTestApp({ env: { SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example', SANDBOX_DOMAIN: 'sandbox.eumail.eu', TEST_MODE_STEP_MS: '1' } });
});
afterAll(async () => {
  await app.close();
  await mx.close();
});

let org: { organizationId: string; apiKey: string; domainId: string };
let templateId: string;
beforeEach(async () => {
  await app.reset();
  mx.messages.length = 0;
  org = await sendingOrg(app);
  app.dns.a('mx.example.net', '127.0.0.1');
  const saved = await app.request('POST', '/api/templates', { key: org.apiKey, body: { name: 'Welcome', subject: 'Welcome', html: '<p>Saved version</p>' } });
  templateId = saved.body.id;
});

const client = (apiKey = org.apiKey) =>
  createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.url}/api/trpc`, headers: { authorization: `Bearer ${apiKey}` }, methodOverride: 'POST' })] });

const envelopeOf = (error: unknown) => (error instanceof TRPCClientError ? (error.data as { envelope?: { code: string; error: string } })?.envelope : undefined);
const refusedWith = async (call: Promise<unknown>) => {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error, 'the call was refused').toBeInstanceOf(TRPCClientError);
  return envelopeOf(error)!;
};

const EDITS = {
  subject: 'Welcome, {{ name | default: "there" }}',
  html: '<h1>Hi {{ name }}</h1><p>{{ company }}</p>',
  text: 'Hi {{ name }} from {{ company }}',
};

describe('the content preview', () => {
  it('renders what is being written, HTML-escaped in the HTML, with the variables it reads and those not given', async () => {
    const preview = await client().templates.previewContent.query({ ...EDITS, variables: JSON.stringify({ name: 'Ada <b>' }) });
    expect(preview).toEqual({
      subject: 'Welcome, Ada <b>',
      html: '<h1>Hi Ada &lt;b&gt;</h1><p></p>',
      text: 'Hi Ada <b> from ',
      missingVariables: ['company'],
      variables: ['name', 'company'],
    });
    // Nothing is saved: the template is as it was.
    expect((await app.request('GET', `/api/templates/${templateId}`, { key: org.apiKey })).body.html).toBe('<p>Saved version</p>');
  });

  it('names the part and line of a syntax error, and asks for html or text', async () => {
    const broken = await refusedWith(client().templates.previewContent.query({ subject: 'S', html: '<p>ok</p>\n{% if vip %}<p>VIP</p>' }));
    expect(broken).toEqual({ status: 400, code: 'VALIDATION_ERROR', error: expect.stringMatching(/^html: line 2: /) });
    const empty = await refusedWith(client().templates.previewContent.query({ subject: 'S' }));
    expect(empty).toMatchObject({ code: 'VALIDATION_ERROR', error: 'html: give html, text or both' });
    const notObject = await refusedWith(client().templates.previewContent.query({ subject: 'S', text: 'x', variables: '["Ada"]' }));
    expect(notObject).toMatchObject({ code: 'VALIDATION_ERROR', error: 'variables: must be a JSON object such as {"name":"Ada"}' });
  });

  it('is a read: a test key previews, a sending_access key may not', async () => {
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    expect((await client(testKey).templates.previewContent.query({ subject: 'S', text: 'Hi' })).text).toBe('Hi');
    const sending = await keyFor(app, org.organizationId, 'sending_access', 'live');
    expect(await refusedWith(client(sending).templates.previewContent.query({ subject: 'S', text: 'Hi' }))).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('Send test', () => {
  it('sends the content being written, rendered with the sample variables, through the send path: [Test] subject, tagged with the template', async () => {
    const { id } = await client().templates.sendTest.mutate({ id: templateId, from: 'Acme <hello@acme.example.com>', to: 'ada@example.net', ...EDITS, variables: JSON.stringify({ name: 'Ada', company: 'Acme' }) });
    const email = (await app.request('GET', `/api/emails/${id}`, { key: org.apiKey })).body;
    expect(email).toMatchObject({
      subject: '[Test] Welcome, Ada',
      html: '<h1>Hi Ada</h1><p>Acme</p>',
      text: 'Hi Ada from Acme',
      to: ['ada@example.net'],
      tags: [{ name: 'template_test', value: templateId }],
      status: 'queued',
    });
    await sweepEmailDispatch(app.runtime.deps);
    expect(mx.messages).toHaveLength(1);
    expect(mx.messages[0]!.raw).toContain('Subject: [Test] Welcome, Ada');
    expect((await app.request('GET', `/api/emails/${id}`, { key: org.apiKey })).body.status).toBe('delivered');
  });

  it('in test mode is a test email: recorded and played out, never delivered, seen by test keys only', async () => {
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const { id } = await client(testKey).templates.sendTest.mutate({ id: templateId, from: 'hello@sandbox.eumail.eu', to: 'anyone@example.org', subject: 'Hi', text: 'Hello' });
    expect((await app.request('GET', `/api/emails/${id}`, { key: org.apiKey })).status).toBe(404);
    await sweepEmailDispatch(app.runtime.deps);
    app.clock.advance(1_000);
    await sweepEmailDispatch(app.runtime.deps);
    const email = (await app.request('GET', `/api/emails/${id}`, { key: testKey })).body;
    expect(email.events.map((event: { type: string }) => event.type)).toEqual(expect.arrayContaining(['email.queued', 'email.sent']));
    expect(mx.messages).toHaveLength(0);
  });

  it('from the dashboard is sent by "dashboard", in the mode the dashboard shows', async () => {
    const person = await signUpPerson(app, 'grace@example.com', { confirmed: true });
    const template = await dashboardCall(app, person.cookie, 'mutation', 'templates.create', { name: 'Receipt', subject: 'Receipt', text: 'Thanks' });
    app.dns.mx('example.com', 'mx.example.net');
    const sent = await dashboardCall(app, person.cookie, 'mutation', 'templates.sendTest', { id: template.data.id, from: 'hello@sandbox.eumail.eu', to: 'grace@example.com', subject: 'Receipt', text: 'Thanks {{ name }}', variables: JSON.stringify({ name: 'Grace' }) });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect((await dashboardCall(app, person.cookie, 'query', 'emails.sentBy', { id: sent.data.id })).data).toEqual({ kind: 'dashboard', key: null, broadcast: null });
    expect((await dashboardCall(app, person.cookie, 'query', 'emails.get', { id: sent.data.id })).data).toMatchObject({ subject: '[Test] Receipt', text: 'Thanks Grace' });
  });

  it("is refused as a send is, in the send path's words", async () => {
    // The sandbox sends live mail only to the owner's confirmed address.
    const sandbox = await refusedWith(client().templates.sendTest.mutate({ id: templateId, from: 'hello@sandbox.eumail.eu', to: 'ada@example.net', subject: 'Hi', text: 'Hi' }));
    expect(sandbox).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    const unverified = await refusedWith(client().templates.sendTest.mutate({ id: templateId, from: 'hello@elsewhere.example', to: 'ada@example.net', subject: 'Hi', text: 'Hi' }));
    expect(unverified).toMatchObject({ code: 'DOMAIN_NOT_VERIFIED' });
    const badAddress = await refusedWith(client().templates.sendTest.mutate({ id: templateId, from: 'hello@acme.example.com', to: 'not an address', subject: 'Hi', text: 'Hi' }));
    expect(badAddress).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining('to') });
    const emptySubject = await refusedWith(client().templates.sendTest.mutate({ id: templateId, from: 'hello@acme.example.com', to: 'ada@example.net', subject: '{{ title }}', text: 'Hi' }));
    expect(emptySubject).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringMatching(/^subject: /) });
    expect(mx.messages).toHaveLength(0);
  });

  it("is refused for another organization's template and to a sending_access key", async () => {
    const other = await app.createOrg();
    const foreign = await refusedWith(client(other.apiKey).templates.sendTest.mutate({ id: templateId, from: 'hello@acme.example.com', to: 'ada@example.net', subject: 'Hi', text: 'Hi' }));
    expect(foreign).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const sending = await keyFor(app, org.organizationId, 'sending_access', 'live');
    expect(await refusedWith(client(sending).templates.sendTest.mutate({ id: templateId, from: 'hello@acme.example.com', to: 'ada@example.net', subject: 'Hi', text: 'Hi' }))).toMatchObject({ code: 'FORBIDDEN' });
  });
});
