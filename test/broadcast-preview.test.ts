import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '@/server/routers/types';
import { startTestApp, type TestApp } from './support/app';
import { sendingOrg } from './support/sending-org';

/**
 * `broadcasts.preview` (dashboard only, no REST path): the broadcast as one contact gets it,
 * rendered by the fan-out's own function, for content being written or a saved broadcast, with the
 * audience's subscribed count. Asked as a POST (method override), as the composer asks it.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

let org: { organizationId: string; apiKey: string };
let audienceId: string;
let contacts: Record<string, string>;
beforeEach(async () => {
  await app.reset();
  org = await sendingOrg(app, { plan: '10k' });
  audienceId = (await app.request('POST', '/api/audiences', { key: org.apiKey, body: { name: 'Newsletter' } })).body.id;
  await app.request('POST', `/api/audiences/${audienceId}/contacts/batch`, {
    key: org.apiKey,
    body: { contacts: [{ email: 'ada@example.net', name: 'Ada <b>' }, { email: 'grace@example.net' }, { email: 'linus@example.net', subscribed: false }] },
  });
  const listed = await app.request('GET', `/api/audiences/${audienceId}/contacts`, { key: org.apiKey });
  contacts = Object.fromEntries(listed.body.data.map((c: { email: string; id: string }) => [c.email, c.id]));
});

const client = (apiKey = org.apiKey) =>
  createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.url}/api/trpc`, headers: { authorization: `Bearer ${apiKey}` }, methodOverride: 'POST' })] });

const SUBJECT = 'News for {{ name | default: "you" }}';
const HTML = '<p>Hello {{ name | default: "there" }} ({{ email }})</p><a href="{{ unsubscribe_url }}">Unsubscribe</a>';

const codeOf = (error: unknown) => (error instanceof TRPCClientError ? (error.data as { envelope?: { code: string; error: string } })?.envelope : undefined);

describe('content being written', () => {
  it('renders for the chosen contact (HTML-escaped), with a preview unsubscribe link, and counts the subscribed contacts', async () => {
    const preview = await client().broadcasts.preview.query({ subject: SUBJECT, html: HTML, text: 'Hi {{ name }}', audience_id: audienceId, contact_id: contacts['ada@example.net'] });
    expect(preview).toEqual({
      subject: 'News for Ada <b>',
      html: `<p>Hello Ada &lt;b&gt; (ada@example.net)</p><a href="${app.runtime.deps.config.appUrl}/unsubscribe/preview">Unsubscribe</a>`,
      text: 'Hi Ada <b>',
      contact: { id: contacts['ada@example.net'], email: 'ada@example.net', name: 'Ada <b>' },
      recipients: 2,
    });
  });

  it("puts the preheader (preview_text) hidden before the HTML, as the fan-out does", async () => {
    const preview = await client().broadcasts.preview.query({ subject: SUBJECT, html: '<p>Hi</p>', preview_text: 'Pre & post' });
    expect(preview.html).toMatch(/^<div style="display:none;[^"]*">Pre &amp; post<\/div><p>Hi<\/p>$/);
  });

  it('without a contact renders sample values; without an audience counts nobody', async () => {
    const preview = await client().broadcasts.preview.query({ subject: SUBJECT, html: HTML });
    expect(preview).toMatchObject({ subject: 'News for Sample contact', contact: null, recipients: null });
    expect(preview.html).toContain('(contact@example.com)');
  });

  it("renders a template's content, the subject given overriding the template's", async () => {
    const template = await app.request('POST', '/api/templates', { key: org.apiKey, body: { name: 'Monthly', subject: 'Monthly for {{ name }}', html: '<h1>{{ email }}</h1>' } });
    const own = await client().broadcasts.preview.query({ template_id: template.body.id, contact_id: contacts['grace@example.net'] });
    expect(own).toMatchObject({ subject: 'Monthly for ', html: '<h1>grace@example.net</h1>' });
    expect((await client().broadcasts.preview.query({ template_id: template.body.id, subject: 'Other' })).subject).toBe('Other');
  });

  it('bodies larger than a URL holds go through as a POST', async () => {
    const html = `<p>{{ name }}</p>${'<p>long paragraph of the newsletter</p>'.repeat(20_000)}`;
    const preview = await client().broadcasts.preview.query({ subject: 'Big', html, contact_id: contacts['ada@example.net'] });
    expect(preview.html!.length).toBeGreaterThan(600_000);
  });

  it('refuses Liquid that does not parse, naming the part, and what is not the organization’s', async () => {
    await expect(client().broadcasts.preview.query({ subject: SUBJECT, html: '<p>{% if name %}open</p>' })).rejects.toSatisfy(
      (error) => codeOf(error)?.code === 'VALIDATION_ERROR' && codeOf(error)!.error.startsWith('html:'),
    );
    const other = await app.createOrg({ name: 'Other' });
    await expect(client(other.apiKey).broadcasts.preview.query({ subject: SUBJECT, html: HTML, contact_id: contacts['ada@example.net'] })).rejects.toSatisfy(
      (error) => codeOf(error)?.code === 'NOT_FOUND',
    );
    await expect(client(other.apiKey).broadcasts.preview.query({ subject: SUBJECT, html: HTML, audience_id: audienceId })).resolves.toMatchObject({ recipients: null });
  });
});

describe('a saved broadcast', () => {
  it('renders as saved for a contact, and is not found for another organization', async () => {
    const created = await app.request('POST', '/api/broadcasts', { key: org.apiKey, body: { audience_id: audienceId, from: 'news@acme.example.com', subject: SUBJECT, html: HTML } });
    expect(created.status, created.text).toBe(201);
    const preview = await client().broadcasts.preview.query({ id: created.body.id, contact_id: contacts['grace@example.net'] });
    expect(preview).toMatchObject({ subject: 'News for you', recipients: 2, contact: { email: 'grace@example.net', name: null } });
    expect(preview.html).toContain('Hello there (grace@example.net)');
    const other = await app.createOrg({ name: 'Other' });
    await expect(client(other.apiKey).broadcasts.preview.query({ id: created.body.id })).rejects.toSatisfy((error) => codeOf(error)?.code === 'NOT_FOUND');
  });
});
