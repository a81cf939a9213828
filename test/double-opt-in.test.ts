import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { apiKeys, consentEntries, contactConfirmations, contacts, emails, events, organizations } from '@/db/schema';
import { CONFIRM_SUBSCRIPTION_CSP } from '@/server/http/confirm-subscription-page';
import { closeOutboundConnections } from '@/server/net/outbound';
import { sweepBroadcasts } from '@/server/services/broadcasts/fan-out';
import { newId } from '@/server/ids';
import { createContactProfileIn } from '@/server/services/contacts/profile-write';
import { deleteUnconfirmedContacts, requestConfirmation, wakeConfirmation } from '@/server/services/double-opt-in';
import type { Principal } from '@/server/services/shared/principal';
import { openConfirmationToken, sealConfirmationToken } from '@/server/services/double-opt-in/tokens';
import { sweepContactImports } from '@/server/services/contact-imports/run';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { DAY_MS, MINUTE_MS } from '@/server/services/shared/time';
import { sweepWebhookDeliveries } from '@/server/services/webhooks/deliver';
import { startTestApp, type TestApp } from './support/app';
import { uploadImport } from './support/contact-imports';
import { keyFor } from './support/keys';
import { reviewedSendingOrg } from './support/sending-org';
import { startMxServer, type MxServer } from './support/smtp-mx';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

// Issue 37 item 2: double opt-in. A contact asked to confirm is pending (not subscribed, no
// broadcast), its confirmation email goes through the admit door to a real MX on loopback, the
// link's page asks (GET changes nothing) and its button confirms; the ledger holds `pending` and
// `confirmed` with their sources; re-sends are throttled; the unconfirmed are deleted after 30 days.

let app: TestApp;
let mx: MxServer;
let receiver: WebhookReceiver;
beforeAll(async () => {
  mx = await startMxServer();
  receiver = await startWebhookReceiver();
  app = await startTestApp({
    env: {
      SMTP_MX_PORT: String(mx.port),
      SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
      // Loopback is the operator's proxy, so X-Forwarded-For carries the client's address.
      TRUSTED_PROXY_CIDRS: '127.0.0.0/8',
    },
  });
});
afterAll(async () => {
  await closeOutboundConnections();
  await app.close();
  await receiver.close();
  await mx.close();
});

let org: { organizationId: string; apiKey: string; domainId: string };
beforeEach(async () => {
  await app.reset();
  mx.messages.length = 0;
  receiver.received.length = 0;
  org = await reviewedSendingOrg(app);
  app.dns.a('mx.example.net', '127.0.0.1');
});

const FROM = 'Acme News <news@acme.example.com>';
const call = (method: string, path: string, body?: unknown) => app.request(method, `/api${path}`, { key: org.apiKey, body });
const keyId = async () => (await app.runtime.deps.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.organizationId, org.organizationId)))[0]!.id;
const ledger = async (contactId: string) =>
  (await app.runtime.deps.db.select().from(consentEntries).where(eq(consentEntries.contactId, contactId)).orderBy(asc(consentEntries.id))).map((entry) => ({
    action: entry.action,
    via: entry.via,
    audienceId: entry.audienceId,
    topicId: entry.topicId,
    apiKeyId: entry.apiKeyId,
    emailId: entry.emailId,
    clientAddress: entry.clientAddress,
    userAgent: entry.userAgent,
  }));

async function askToConfirm(email: string, extra: Record<string, unknown> = {}) {
  const response = await call('POST', '/contacts', { email, double_opt_in: true, confirmation: { from: FROM }, ...extra });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; unsubscribed: boolean; pending: boolean };
}

/** The link of the confirmation as the recipient's MX received it. */
async function deliveredLink(to: string): Promise<string> {
  await sweepEmailDispatch(app.runtime.deps);
  const message = mx.messages.find((one) => one.to.includes(to));
  expect(message, `a message to ${to}`).toBeDefined();
  const mail = await simpleParser(message!.raw);
  const link = /(http:\/\/127\.0\.0\.1:3000\/confirm-subscription\/[A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
  expect(link).toBeDefined();
  expect(mail.html).toContain(link);
  return link!;
}

/** The link of the newest confirmation stored for an address (not delivered). */
async function storedLink(to: string): Promise<string> {
  const rows = await app.runtime.deps.db.select({ text: emails.text, to: emails.to }).from(emails).orderBy(asc(emails.id));
  const text = rows.filter((row) => row.to.includes(to)).at(-1)?.text ?? '';
  const link = /(http:\/\/127\.0\.0\.1:3000\/confirm-subscription\/[A-Za-z0-9_-]{43})/.exec(text)?.[1];
  expect(link, `a confirmation stored for ${to}`).toBeDefined();
  return link!;
}

/** The link as the test server serves it: the same path on the app's loopback port. */
const local = (link: string) => `${app.url}${new URL(link).pathname}`;
const open = (link: string) => fetch(local(link), { headers: { 'user-agent': 'LinkScanner/1.0' } });
const press = (link: string, headers: Record<string, string> = {}) =>
  fetch(local(link), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: 'confirm=1' });

describe('POST /contacts with double_opt_in', () => {
  it('makes the contact pending, mails the link from the verified domain, and the button (not the GET) confirms it, with the ledger and the webhook', async () => {
    const hook = (await call('POST', '/webhooks', { url: `http://127.0.0.1:${receiver.port}/hook`, events: ['contact.confirmed'] })).body;
    const news = (await call('POST', '/segments', { name: 'News' })).body.id as string;
    const created = await askToConfirm('ada@example.net', { first_name: 'Ada', segments: [{ id: news }] });
    expect(created).toMatchObject({ unsubscribed: true, pending: true });
    expect((await call('GET', `/contacts/${created.id}`)).body).toMatchObject({ unsubscribed: true, pending: true });
    // The segments are joined on confirmation, not before.
    expect((await call('GET', `/audiences/${news}/contacts`)).body.data).toEqual([]);

    const [confirmation] = await app.runtime.deps.db.select().from(contactConfirmations).where(eq(contactConfirmations.contactId, created.id));
    const [stored] = await app.runtime.deps.db.select().from(emails).where(eq(emails.id, confirmation!.emailId!));
    expect(stored).toMatchObject({ fromAddress: 'news@acme.example.com', to: ['ada@example.net'], subject: 'Confirm your subscription to Acme' });
    expect(confirmation!.expiresAt.getTime() - confirmation!.createdAt.getTime()).toBe(7 * DAY_MS);

    const link = await deliveredLink('ada@example.net');
    // A scanner fetching the link changes nothing.
    const page = await open(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    // Its own narrow policy (one style sheet by hash, no script, no framing), and its URL holds the token: no Referer.
    expect(page.headers.get('content-security-policy')).toBe(CONFIRM_SUBSCRIPTION_CSP);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('set-cookie')).toBeNull();
    const html = await page.text();
    expect(html).toContain('Confirm my subscription');
    expect(html).toContain('ada@example.net');
    expect((await fetch(local(link), { method: 'HEAD' })).status).toBe(200);
    expect((await call('GET', `/contacts/${created.id}`)).body.pending).toBe(true);

    const confirmed = await press(link, { 'user-agent': 'Mozilla/5.0 (Ada)', 'x-forwarded-for': '198.51.100.7' });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('Subscription confirmed');
    expect((await call('GET', `/contacts/${created.id}`)).body).toMatchObject({ unsubscribed: false, pending: false });
    expect((await call('GET', `/audiences/${news}/contacts`)).body.data).toEqual([expect.objectContaining({ id: created.id, subscribed: true, pending: false })]);

    const entries = await ledger(created.id);
    expect(entries).toEqual([
      { action: 'pending', via: 'api', audienceId: null, topicId: null, apiKeyId: await keyId(), emailId: null, clientAddress: null, userAgent: null },
      { action: 'confirmed', via: 'confirmation', audienceId: null, topicId: null, apiKeyId: null, emailId: confirmation!.emailId, clientAddress: '198.51.100.7', userAgent: 'Mozilla/5.0 (Ada)' },
      { action: 'subscribed', via: 'confirmation', audienceId: news, topicId: null, apiKeyId: null, emailId: confirmation!.emailId, clientAddress: '198.51.100.7', userAgent: 'Mozilla/5.0 (Ada)' },
    ]);

    // Twice is harmless: the same answer in words, nothing more written.
    const again = await press(link);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('Already confirmed');
    expect(await ledger(created.id)).toHaveLength(3);

    await sweepWebhookDeliveries(app.runtime.deps);
    const payloads = receiver.received.map((received) => receiver.verify(received, hook.secret));
    expect(payloads).toEqual([
      {
        type: 'contact.confirmed',
        createdAt: expect.any(String),
        data: expect.objectContaining({ contactId: created.id, email: 'ada@example.net', subscribed: true, emailId: confirmation!.emailId, audienceIds: [news] }),
      },
    ]);
  });

  it('joins the topics asked for on confirmation, and mails the organization\'s template with the link', async () => {
    const topic = (await call('POST', '/topics', { name: 'Offers', default_subscription: 'opt_out' })).body.id as string;
    const template = (await call('POST', '/templates', { name: 'Confirm', subject: 'Please confirm, {{ name | default: "friend" }}', html: '<p>Click <a href="{{ confirmation_url }}">here</a> within {{ expires_in_days }} days</p>' })).body.id as string;
    expect((await call('POST', `/templates/${template}/publish`)).status).toBeLessThan(300);
    const created = await askToConfirm('bob@example.net', { name: 'Bob', topics: [{ id: topic, subscription: 'opt_in' }], confirmation: { from: FROM, template_id: template } });
    const stored = (await app.runtime.deps.db.select().from(emails)).find((row) => row.to.includes('bob@example.net'));
    expect(stored!.subject).toBe('Please confirm, Bob');
    expect(stored!.html).toMatch(/href="http:\/\/127\.0\.0\.1:3000\/confirm-subscription\/[A-Za-z0-9_-]{43}"/);
    expect(stored!.html).toContain('within 7 days');
    expect((await call('GET', `/contacts/${created.id}/topics`)).body.data[0].subscription).toBe('opt_out');

    const link = /href="([^"]+)"/.exec(stored!.html!)![1]!;
    expect((await press(link)).status).toBe(200);
    expect((await call('GET', `/contacts/${created.id}/topics`)).body.data[0].subscription).toBe('opt_in');
    expect((await ledger(created.id)).map((entry) => [entry.action, entry.via, entry.topicId])).toEqual([
      ['pending', 'api', null],
      ['confirmed', 'confirmation', null],
      ['topic_in', 'confirmation', topic],
    ]);
  });

  it('refuses what cannot be confirmed, and stores nothing then', async () => {
    const refusals = [
      [{ email: 'c@example.net', double_opt_in: true }, 400, 'VALIDATION_ERROR', /confirmation\.from/],
      [{ email: 'c@example.net', double_opt_in: true, confirmation: { from: 'news@unverified.example.org' } }, 403, 'DOMAIN_NOT_VERIFIED', /./],
      [{ email: 'c@example.net', double_opt_in: true, unsubscribed: true, confirmation: { from: FROM } }, 400, 'VALIDATION_ERROR', /double_opt_in/],
      [{ email: 'c@example.net', confirmation: { from: FROM } }, 400, 'VALIDATION_ERROR', /only read with double_opt_in/],
    ] as const;
    for (const [body, status, code, words] of refusals) {
      const response = await call('POST', '/contacts', body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body).toEqual({ error: expect.stringMatching(words), code });
    }
    const template = (await call('POST', '/templates', { name: 'No link', subject: 'Hi', html: '<p>Hello</p>' })).body.id as string;
    await call('POST', `/templates/${template}/publish`);
    const noLink = await call('POST', '/contacts', { email: 'c@example.net', double_opt_in: true, confirmation: { from: FROM, template_id: template } });
    expect(noLink.status).toBe(400);
    expect(noLink.body.error).toMatch(/confirmation_url/);
    expect(await app.runtime.deps.db.select().from(contacts)).toEqual([]);
    expect(await app.runtime.deps.db.select().from(emails)).toEqual([]);
  });

  it('asks an unsubscribed contact again, leaves one confirmed before as it is', async () => {
    const plain = (await call('POST', '/contacts', { email: 'dan@example.net', unsubscribed: true })).body;
    const asked = await askToConfirm('dan@example.net');
    expect(asked).toMatchObject({ id: plain.id, unsubscribed: true, pending: true });
    expect((await ledger(plain.id)).map((entry) => entry.action)).toEqual(['unsubscribed', 'pending']);
    await press(await storedLink('dan@example.net'));
    const again = await call('POST', '/contacts', { email: 'dan@example.net', double_opt_in: true, confirmation: { from: FROM } });
    expect(again.body).toMatchObject({ unsubscribed: false, pending: false });
    expect(await app.runtime.deps.db.select().from(contactConfirmations)).toHaveLength(1);
  });
});

describe('an import that declares its rows confirmed', () => {
  it('sets confirmed_at with its ledger entry, so a double opt-in asked later mails nothing; an undeclared import or an opt-out is still asked', async () => {
    const news = (await call('POST', '/segments', { name: 'News' })).body.id as string;
    expect((await call('POST', '/contacts', { email: 'dee@example.net', unsubscribed: true })).status).toBe(201);
    const drain = async () => {
      for (let i = 0; i < 20 && (await sweepContactImports(app.runtime.deps)).outcomes.more; i += 1);
    };
    const declared = await uploadImport(app, org.apiKey, 'email\nada@example.net\ndee@example.net\n', { confirmed_consent: 'true' });
    expect(declared.status, declared.text).toBe(202);
    await drain();
    app.clock.advance(MINUTE_MS);
    const plain = await uploadImport(app, org.apiKey, 'email\nbob@example.net\n');
    expect(plain.status, plain.text).toBe(202);
    await drain();
    const row = async (email: string) => (await app.runtime.deps.db.select().from(contacts).where(eq(contacts.email, email)))[0]!;
    const ada = await row('ada@example.net');
    const confirmedEntry = (await app.runtime.deps.db.select().from(consentEntries).where(eq(consentEntries.contactId, ada.id))).find((one) => one.action === 'confirmed');
    expect(confirmedEntry).toMatchObject({ via: 'import', importId: declared.body.id });
    // The copy takes the entry's own time.
    expect(ada.confirmedAt?.toISOString()).toBe(confirmedEntry!.createdAt.toISOString());
    expect((await row('bob@example.net')).confirmedAt).toBeNull();
    // Dee's opt-out stands: no confirmation, nor its copy.
    expect((await row('dee@example.net')).confirmedAt).toBeNull();

    app.clock.advance(MINUTE_MS);
    const again = await call('POST', '/contacts', { email: 'ada@example.net', double_opt_in: true, confirmation: { from: FROM }, segments: [{ id: news }] });
    expect(again.status, again.text).toBe(201);
    expect(again.body).toMatchObject({ id: ada.id, unsubscribed: false, pending: false });
    // Joined at once, as a contact confirmed before is; nothing mailed.
    expect((await call('GET', `/audiences/${news}/contacts`)).body.data.map((one: { email: string }) => one.email)).toEqual(['ada@example.net']);
    expect(await app.runtime.deps.db.select().from(contactConfirmations)).toEqual([]);
    expect(await app.runtime.deps.db.select().from(emails)).toEqual([]);

    // Bob came through an import that declared nothing, Dee had opted out: both are asked.
    expect(await askToConfirm('bob@example.net')).toMatchObject({ unsubscribed: true, pending: true });
    expect(await askToConfirm('dee@example.net')).toMatchObject({ unsubscribed: true, pending: true });
    expect(await app.runtime.deps.db.select().from(contactConfirmations)).toHaveLength(2);
  });
});

describe('POST /audiences/{id}/contacts with double_opt_in', () => {
  it('makes the contact pending with the spec\'s contact answer, and the audience is joined when the link is pressed', async () => {
    const audience = (await call('POST', '/audiences', { name: 'Members' })).body.id as string;
    const created = await call('POST', `/audiences/${audience}/contacts`, { email: 'Jo@Example.net', name: 'Jo', double_opt_in: true, confirmation: { from: FROM } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), email: 'jo@example.net', name: 'Jo', subscribed: false, pending: true, createdAt: expect.any(String), updatedAt: expect.any(String) });
    // Not in the audience until it confirms; the organization's contact is pending.
    expect((await call('GET', `/audiences/${audience}/contacts`)).body.data).toEqual([]);
    expect((await call('GET', `/audiences/${audience}/contacts/${created.body.id}`)).status).toBe(404);
    expect((await call('GET', `/contacts/${created.body.id}`)).body).toMatchObject({ unsubscribed: true, pending: true });
    const [confirmation] = await app.runtime.deps.db.select().from(contactConfirmations).where(eq(contactConfirmations.contactId, created.body.id));
    expect(confirmation).toMatchObject({ audienceIds: [audience], fromAddress: FROM });

    // Asked again at once: the same throttle as POST /contacts.
    const again = await call('POST', `/audiences/${audience}/contacts`, { email: 'jo@example.net', double_opt_in: true, confirmation: { from: FROM } });
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('RATE_LIMITED');

    expect((await press(await deliveredLink('jo@example.net'), { 'user-agent': 'Mozilla/5.0 (Jo)' })).status).toBe(200);
    expect((await call('GET', `/audiences/${audience}/contacts`)).body.data).toEqual([expect.objectContaining({ id: created.body.id, subscribed: true, pending: false })]);
    expect((await ledger(created.body.id)).map((entry) => [entry.action, entry.via, entry.audienceId, entry.apiKeyId])).toEqual([
      ['pending', 'api', null, await keyId()],
      ['confirmed', 'confirmation', null, null],
      ['subscribed', 'confirmation', audience, null],
    ]);
    // Confirmed once, the same request joins at once and mails nothing.
    const other = (await call('POST', '/audiences', { name: 'Others' })).body.id as string;
    const joined = await call('POST', `/audiences/${other}/contacts`, { email: 'jo@example.net', double_opt_in: true, confirmation: { from: FROM } });
    expect(joined.status, joined.text).toBe(201);
    expect(joined.body).toMatchObject({ id: created.body.id, subscribed: true, pending: false });
    expect(await app.runtime.deps.db.select().from(contactConfirmations)).toHaveLength(1);
  });

  it("refuses what POST /contacts refuses, and what the audience route cannot take, storing nothing", async () => {
    const audience = (await call('POST', '/audiences', { name: 'Members' })).body.id as string;
    const ruled = (await call('POST', '/segments', { name: 'Openers', rules: { conditions: [{ type: 'engagement', activity: 'opened_or_clicked', within_days: 30 }] } })).body.id as string;
    const theirs = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
    const theirAudience = (await app.request('POST', '/api/audiences', { key: theirs.apiKey, body: { name: 'Theirs' } })).body.id as string;
    const noLink = (await call('POST', '/templates', { name: 'No link', subject: 'Hi', html: '<p>Hello</p>' })).body.id as string;
    const ask = { email: 'kim@example.net', double_opt_in: true, confirmation: { from: FROM } };
    const refusals: Array<[string, Record<string, unknown>, number, string, RegExp]> = [
      [audience, { email: 'kim@example.net', double_opt_in: true }, 400, 'VALIDATION_ERROR', /^confirmation\.from/],
      [audience, { email: 'kim@example.net', confirmation: { from: FROM } }, 400, 'VALIDATION_ERROR', /only read with double_opt_in/],
      [audience, { ...ask, unsubscribed: true }, 400, 'VALIDATION_ERROR', /^double_opt_in/],
      [audience, { ...ask, subscribed: false }, 400, 'VALIDATION_ERROR', /^double_opt_in/],
      [audience, { ...ask, confirmation: { from: 'news@unverified.example.org' } }, 403, 'DOMAIN_NOT_VERIFIED', /./],
      [audience, { ...ask, confirmation: { from: FROM, template_id: noLink } }, 400, 'VALIDATION_ERROR', /^confirmation\.template_id: .*confirmation_url/],
      [audience, { ...ask, confirmation: { from: FROM, extra: 1 } }, 400, 'VALIDATION_ERROR', /extra/],
      [newId(), ask, 404, 'NOT_FOUND', /./],
      [theirAudience, ask, 404, 'NOT_FOUND', /./],
      // Another organization's audience is not found, whatever the body says.
      [theirAudience, { email: 'kim@example.net', confirmation: { from: FROM } }, 404, 'NOT_FOUND', /./],
      [ruled, ask, 409, 'CONFLICT', /rules/],
    ];
    for (const [id, body, status, code, words] of refusals) {
      const response = await call('POST', `/audiences/${id}/contacts`, body);
      expect(response.status, `${JSON.stringify(body)}: ${response.text}`).toBe(status);
      expect(response.body).toEqual({ error: expect.stringMatching(words), code });
    }
    // The keys' rules: a test key writes no live state, a sending_access key reaches only the send paths.
    for (const key of [await keyFor(app, org.organizationId, 'full_access', 'test'), await keyFor(app, org.organizationId, 'sending_access', 'live')]) {
      const response = await app.request('POST', `/api/audiences/${audience}/contacts`, { key, body: ask });
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('FORBIDDEN');
    }
    expect(await app.runtime.deps.db.select().from(contacts).where(eq(contacts.organizationId, org.organizationId))).toEqual([]);
    expect(await app.runtime.deps.db.select().from(emails)).toEqual([]);
    // Without double_opt_in (or with false) it is the spec's create, subscribed at once.
    const plain = await call('POST', `/audiences/${audience}/contacts`, { email: 'kim@example.net', double_opt_in: false });
    expect(plain.status, plain.text).toBe(201);
    expect(plain.body).toMatchObject({ email: 'kim@example.net', subscribed: true, pending: false });
  });
});

describe('createContactProfileIn and requestConfirmation, as a hosted form calls them', () => {
  it('in the caller\'s transaction: the form\'s source on `pending`, its form and version on `confirmed`, the lists joined then', async () => {
    const news = (await call('POST', '/segments', { name: 'News' })).body.id as string;
    const formId = newId();
    const principal: Principal = { organizationId: org.organizationId, permission: 'full_access', mode: 'live', keyId: null, domainId: null, userId: null, plan: '10k', rateLimitOverride: null };
    const deps = app.runtime.deps;
    const source = { via: 'form' as const, formId, formVersion: 3, clientAddress: '203.0.113.5', userAgent: 'Mozilla/5.0 (Form)' };
    const made = await deps.db.transaction((tx) =>
      createContactProfileIn(tx, deps, principal, { email: 'Pia@Example.net', firstName: 'Pia', segmentIds: [news], doubleOptIn: { sender: { from: FROM } } }, source),
    );
    expect(made.contact).toMatchObject({ email: 'pia@example.net', pending: true, unsubscribed: true });
    const contactId = made.contact.id;
    const requested = made.confirmation!;
    // The contact counts against the plan like any other.
    expect((await app.runtime.deps.db.select({ n: organizations.contactCount }).from(organizations).where(eq(organizations.id, org.organizationId)))[0]!.n).toBe(1);
    // Or, for a contact the form's transaction already holds, requestConfirmation itself (a re-submission: the throttle applies).
    const again = deps.db.transaction((tx) => requestConfirmation(tx, deps, { principal, contactId, sender: { from: FROM }, source }));
    await expect(again).rejects.toMatchObject({ appCode: 'RATE_LIMITED' });
    wakeConfirmation(deps, requested);
    expect(requested).toMatchObject({ status: 'sent', emailId: expect.any(String) });
    const link = await deliveredLink('pia@example.net');
    expect((await press(link, { 'user-agent': 'Mozilla/5.0 (Pia)' })).status).toBe(200);
    const [pending, confirmed, joined] = await app.runtime.deps.db.select().from(consentEntries).where(eq(consentEntries.contactId, contactId)).orderBy(asc(consentEntries.id));
    expect(pending).toMatchObject({ action: 'pending', via: 'form', formId, formVersion: 3, clientAddress: '203.0.113.5', userAgent: 'Mozilla/5.0 (Form)' });
    expect(confirmed).toMatchObject({ action: 'confirmed', via: 'confirmation', formId, formVersion: 3, emailId: requested.emailId, userAgent: 'Mozilla/5.0 (Pia)' });
    expect(joined).toMatchObject({ action: 'subscribed', audienceId: news, via: 'confirmation', formId });
  });
});

describe('the confirmation link', () => {
  it('says so, and changes nothing, when it has expired, was tampered with, or its contact was settled meanwhile', async () => {
    const created = await askToConfirm('eve@example.net');
    const link = await storedLink('eve@example.net');
    const token = new URL(link).pathname.split('/').pop()!;

    const tampered = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    for (const bad of [tampered, 'not-a-token', token.slice(0, -1)]) {
      const response = await press(`http://x/confirm-subscription/${bad}`);
      expect(response.status, bad).toBe(404);
      expect(await response.text()).toContain('Link not found');
    }
    // A token signed with another key (another purpose's key included) is not ours.
    const foreign = sealConfirmationToken(Buffer.alloc(32, 7), openConfirmationToken(app.runtime.deps.encryptionKey, token)!);
    expect((await press(`http://x/confirm-subscription/${foreign}`)).status).toBe(404);

    app.clock.advance(7 * DAY_MS + MINUTE_MS);
    const expired = await press(link);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This link has expired');
    expect((await open(link)).status).toBe(410);
    expect((await call('GET', `/contacts/${created.id}`)).body.pending).toBe(true);
    expect((await ledger(created.id)).map((entry) => entry.action)).toEqual(['pending']);

    // A new link works; the organization subscribing the contact first settles it.
    expect((await call('POST', `/contacts/${created.id}/confirmation`)).status).toBe(200);
    const fresh = await storedLink('eve@example.net');
    expect(fresh).not.toBe(link);
    expect((await call('PATCH', `/contacts/${created.id}`, { unsubscribed: false })).status).toBe(200);
    const settled = await press(fresh);
    expect(settled.status).toBe(410);
    expect(await settled.text()).toContain('no longer needed');
  });

  it('has its own rate limit per client address, a body limit, and takes hostile paths and bodies in its stride', async () => {
    await askToConfirm('fay@example.net');
    const link = await storedLink('fay@example.net');
    const hostile = [
      '/confirm-subscription/..%2F..%2Fapi%2Fhealth',
      '/confirm-subscription/%00',
      `/confirm-subscription/${'A'.repeat(129)}`,
      '/confirm-subscription/<script>alert(1)</script>',
      "/confirm-subscription/x'or'1'='1",
      '/confirm-subscription/a/b',
      '/confirm-subscription/%E2%80%AE%F0%9F%92%A5',
      '/confirm-subscription/',
    ];
    for (const path of hostile) {
      const response = await fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'confirm=1' });
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toContain('<script>alert');
    }
    expect((await fetch(local(link), { method: 'PUT' })).status).toBe(405);
    // A body past 8 KiB is refused unread; a body without the button's field confirms nothing.
    const big = await fetch(local(link), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `confirm=1&pad=${'x'.repeat(9 * 1024)}` });
    expect(big.status).toBe(413);
    const noButton = await fetch(local(link), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"confirm":1}' });
    expect(noButton.status).toBe(400);
    const odd = await fetch(local(link), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'confirm=%00%ZZ&pad=%E2%80%AE' });
    expect(odd.status).toBe(400);
    expect((await app.runtime.deps.db.select({ pending: contacts.pendingSince }).from(contacts))[0]!.pending).not.toBeNull();

    // 30 a minute per address (X-Forwarded-For is believed from the trusted loopback proxy): the next is 429, another address is not held.
    for (let i = 0; i < 30 - hostile.length - 3; i += 1) expect((await fetch(local(link), { headers: { 'x-forwarded-for': '127.0.0.1' } })).status).toBe(200);
    const busy = await fetch(local(link));
    expect(busy.status).toBe(429);
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await fetch(local(link), { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(200);
  });
});

describe('POST /contacts/{idOrEmail}/confirmation', () => {
  it('re-sends at most once per 10 minutes and 5 times a day, and only to a pending contact', async () => {
    const created = await askToConfirm('gus@example.net');
    const tooSoon = await call('POST', `/contacts/${created.id}/confirmation`);
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body).toEqual({ error: expect.stringMatching(/10 minutes/), code: 'RATE_LIMITED' });
    expect(Number(tooSoon.headers.get('retry-after'))).toBe(600);
    // The same through POST /contacts: no second mail within the window.
    expect((await call('POST', '/contacts', { email: 'gus@example.net', double_opt_in: true, confirmation: { from: FROM } })).status).toBe(429);

    for (let sent = 2; sent <= 5; sent += 1) {
      app.clock.advance(10 * MINUTE_MS);
      const resent = await call('POST', `/contacts/gus%40example.net/confirmation`);
      expect(resent.status, resent.text).toBe(200);
      expect(resent.body).toEqual({ contactId: created.id, emailId: expect.any(String), expiresAt: new Date(app.clock.now().getTime() + 7 * DAY_MS).toISOString() });
    }
    app.clock.advance(10 * MINUTE_MS);
    const daily = await call('POST', `/contacts/${created.id}/confirmation`);
    expect(daily.status).toBe(429);
    expect(daily.body.error).toMatch(/5 times in the last 24 hours/);
    expect(await app.runtime.deps.db.select().from(contactConfirmations)).toHaveLength(5);
    // Only the first request wrote `pending`.
    expect((await ledger(created.id)).map((entry) => entry.action)).toEqual(['pending']);

    await call('PATCH', `/contacts/${created.id}`, { unsubscribed: false });
    const settled = await call('POST', `/contacts/${created.id}/confirmation`);
    expect(settled.status).toBe(409);
  });

  it('keeps the last template, falls back to the built-in text once it is deleted, and checks a template named anew as the first request does', async () => {
    const template = (await call('POST', '/templates', { name: 'Confirm', subject: 'Confirm, please', html: '<a href="{{ confirmation_url }}">Confirm</a>' })).body.id as string;
    const created = await askToConfirm('ivy@example.net', { confirmation: { from: FROM, template_id: template } });
    const subjects = async () => (await app.runtime.deps.db.select({ subject: emails.subject, to: emails.to }).from(emails).orderBy(asc(emails.id))).filter((row) => row.to.includes('ivy@example.net')).map((row) => row.subject);
    app.clock.advance(10 * MINUTE_MS);
    expect((await call('POST', `/contacts/${created.id}/confirmation`)).status).toBe(200);
    expect((await call('DELETE', `/templates/${template}`)).status).toBe(200);
    app.clock.advance(10 * MINUTE_MS);
    expect((await call('POST', `/contacts/${created.id}/confirmation`)).status).toBe(200);
    expect(await subjects()).toEqual(['Confirm, please', 'Confirm, please', 'Confirm your subscription to Acme']);
    // Named in the request, a template that is gone is the caller's mistake: 404, nothing mailed.
    app.clock.advance(10 * MINUTE_MS);
    const named = await call('POST', `/contacts/${created.id}/confirmation`, { template_id: template });
    expect(named.status).toBe(404);
    expect(await subjects()).toHaveLength(3);
  });
});

describe("the organization's own call", () => {
  it('PATCH unsubscribed: false ends pending as `subscribed` by the key, not as a confirmation; so does an audience PATCH subscribed: true', async () => {
    const created = await askToConfirm('hal@example.net');
    const patched = await call('PATCH', `/contacts/${created.id}`, { unsubscribed: false });
    expect(patched.body).toMatchObject({ unsubscribed: false, pending: false });
    expect((await ledger(created.id)).map((entry) => [entry.action, entry.via, entry.apiKeyId])).toEqual([
      ['pending', 'api', await keyId()],
      ['subscribed', 'api', await keyId()],
    ]);

    const list = (await call('POST', '/audiences', { name: 'List' })).body.id as string;
    const member = await call('POST', `/audiences/${list}/contacts`, { email: 'ivy@example.net' });
    await askToConfirm('ivy@example.net');
    // Pending: not subscribed on the spec's routes, and the list filter agrees.
    expect((await call('GET', `/audiences/${list}/contacts/${member.body.id}`)).body).toMatchObject({ subscribed: false, pending: true });
    expect((await call('GET', `/audiences/${list}/contacts?subscribed=true`)).body.data).toEqual([]);
    expect((await call('GET', `/audiences/${list}/contacts?subscribed=false`)).body.data).toHaveLength(1);
    const resubscribed = await call('PATCH', `/audiences/${list}/contacts/${member.body.id}`, { subscribed: true });
    expect(resubscribed.body).toMatchObject({ subscribed: true, pending: false });
    expect((await ledger(member.body.id)).map((entry) => [entry.action, entry.via]).slice(-2)).toEqual([
      ['pending', 'api'],
      ['subscribed', 'api'],
    ]);
  });

  it('PATCH unsubscribed: true on a pending contact ends pending as `unsubscribed`, and its link no longer confirms', async () => {
    const created = await askToConfirm('jan@example.net');
    expect((await call('PATCH', `/contacts/${created.id}`, { unsubscribed: true })).body).toMatchObject({ unsubscribed: true, pending: false });
    expect((await ledger(created.id)).map((entry) => entry.action)).toEqual(['pending', 'unsubscribed']);
    expect((await press(await storedLink('jan@example.net'))).status).toBe(410);
  });
});

describe('broadcasts', () => {
  it('skip a pending contact: not counted, not sent; once confirmed it is', async () => {
    const audience = (await call('POST', '/audiences', { name: 'Newsletter' })).body.id as string;
    await call('POST', `/audiences/${audience}/contacts/batch`, { contacts: [{ email: 'kim@example.net' }, { email: 'lee@example.net' }] });
    await askToConfirm('lee@example.net');
    const broadcast = async () => {
      const made = (await call('POST', '/broadcasts', { audience_id: audience, from: FROM, subject: 'News', html: '<p>Hi <a href="{{ unsubscribe_url }}">unsubscribe</a></p>' })).body.id as string;
      expect((await call('POST', `/broadcasts/${made}/send`)).status).toBeLessThan(300);
      for (let i = 0; i < 10 && (await call('GET', `/broadcasts/${made}`)).body.status !== 'sent'; i += 1) await sweepBroadcasts(app.runtime.deps);
      const done = (await call('GET', `/broadcasts/${made}`)).body;
      const sentTo = (await app.runtime.deps.db.select({ to: emails.to }).from(emails).where(eq(emails.broadcastId, made))).flatMap((row) => row.to);
      return { counts: done.counts, sentTo };
    };
    const first = await broadcast();
    expect(first.counts.recipients).toBe(1);
    expect(first.sentTo).toEqual(['kim@example.net']);

    await press(await storedLink('lee@example.net'));
    const second = await broadcast();
    expect(second.counts.recipients).toBe(2);
    expect(second.sentTo.sort()).toEqual(['kim@example.net', 'lee@example.net']);
  });
});

describe('the unconfirmed-contacts sweep', () => {
  it('deletes a contact the request made, still pending 30 days after its last confirmation email, under the test clock, declaring retention', async () => {
    const late = await askToConfirm('nat@example.net');
    const early = await askToConfirm('pia@example.net');
    const kept = await askToConfirm('oz@example.net');
    await press(await storedLink('oz@example.net'));
    const count = async () => (await app.runtime.deps.db.select({ n: organizations.contactCount }).from(organizations).where(eq(organizations.id, org.organizationId)))[0]!.n;
    expect(await count()).toBe(3);

    app.clock.advance(20 * DAY_MS);
    // A re-send 20 days in gives nat 30 days from then.
    expect((await call('POST', `/contacts/${late.id}/confirmation`)).status).toBe(200);
    app.clock.advance(10 * DAY_MS - MINUTE_MS);
    expect(await deleteUnconfirmedContacts(app.runtime.deps)).toEqual({ deleted: 0, ended: 0 });
    app.clock.advance(2 * MINUTE_MS);
    expect(await deleteUnconfirmedContacts(app.runtime.deps)).toEqual({ deleted: 1, ended: 0 });
    expect((await call('GET', `/contacts/${early.id}`)).status).toBe(404);
    expect(await count()).toBe(2);
    const deleted = await app.runtime.deps.db.select({ data: events.data }).from(events).where(eq(events.type, 'contact.deleted'));
    expect(deleted.map((event) => event.data)).toEqual([expect.objectContaining({ contactId: early.id, reason: 'unconfirmed' })]);

    app.clock.advance(20 * DAY_MS);
    expect(await deleteUnconfirmedContacts(app.runtime.deps)).toEqual({ deleted: 1, ended: 0 });
    expect((await call('GET', `/contacts/${late.id}`)).status).toBe(404);
    expect((await call('GET', `/contacts/${kept.id}`)).body).toMatchObject({ pending: false, unsubscribed: false });
    // The ledger outlives the contact: it never confirmed.
    expect((await ledger(early.id)).map((entry) => entry.action)).toEqual(['pending']);
    expect(await deleteUnconfirmedContacts(app.runtime.deps)).toEqual({ deleted: 0, ended: 0 });
  });

  it('keeps a contact that was there before the request: pending ends, it stays unsubscribed with its lists, and its opt-out holds against a later create', async () => {
    const hook = (await call('POST', '/webhooks', { url: `http://127.0.0.1:${receiver.port}/hook`, events: ['contact.updated', 'contact.deleted', 'contact.consent_changed'] })).body;
    const audience = (await call('POST', '/audiences', { name: 'Old' })).body.id as string;
    // A subscriber asked to confirm again, and an earlier opt-out asked again: both made pending by
    // the request in the very instant of the clock they were created in (the test clock stands still).
    const member = (await call('POST', `/audiences/${audience}/contacts`, { email: 'mo@example.net' })).body.id as string;
    const optedOut = (await call('POST', '/contacts', { email: 'una@example.net', unsubscribed: true })).body.id as string;
    await askToConfirm('mo@example.net');
    await askToConfirm('una@example.net');
    // One the request made, unsubscribed by the organization while pending, then asked again: its opt-out is history to keep too.
    const patched = await askToConfirm('vic@example.net');
    expect((await call('PATCH', `/contacts/${patched.id}`, { unsubscribed: true })).status).toBe(200);
    app.clock.advance(11 * MINUTE_MS);
    await askToConfirm('vic@example.net');
    const made = await askToConfirm('wes@example.net');
    const count = async () => (await app.runtime.deps.db.select({ n: organizations.contactCount }).from(organizations).where(eq(organizations.id, org.organizationId)))[0]!.n;
    expect(await count()).toBe(4);

    const deliverAll = async () => {
      while ((await sweepWebhookDeliveries(app.runtime.deps)).handled > 0);
    };
    await deliverAll();
    receiver.received.length = 0;

    app.clock.advance(30 * DAY_MS + MINUTE_MS);
    expect(await deleteUnconfirmedContacts(app.runtime.deps)).toEqual({ deleted: 1, ended: 3 });
    expect((await call('GET', `/contacts/${made.id}`)).status).toBe(404);
    for (const id of [member, optedOut, patched.id]) expect((await call('GET', `/contacts/${id}`)).body).toMatchObject({ id, unsubscribed: true, pending: false });
    expect(await count()).toBe(3);
    // mo stays in its list (out of it only as a contact unsubscribed from everything), the count with it.
    expect((await call('GET', `/audiences/${audience}`)).body.contactCount).toBe(1);
    // The ledger records the end of pending: unsubscribed, through retention.
    expect((await ledger(member)).map((entry) => [entry.action, entry.via])).toEqual([
      ['subscribed', 'api'],
      ['subscribed', 'api'],
      ['pending', 'api'],
      ['unsubscribed', 'retention'],
    ]);
    expect((await ledger(optedOut)).map((entry) => [entry.action, entry.via])).toEqual([
      ['unsubscribed', 'api'],
      ['pending', 'api'],
      ['unsubscribed', 'retention'],
    ]);
    expect((await ledger(patched.id)).map((entry) => entry.action)).toEqual(['pending', 'unsubscribed', 'pending', 'unsubscribed']);
    // The opt-out is kept: a later create of the address does not subscribe it again.
    expect((await call('POST', '/contacts', { email: 'una@example.net', unsubscribed: false })).body).toMatchObject({ id: optedOut, unsubscribed: true });
    // Its links say it is no longer needed; a second sweep has nothing to do.
    expect((await open(await storedLink('una@example.net'))).status).toBe(410);
    expect(await deleteUnconfirmedContacts(app.runtime.deps)).toEqual({ deleted: 0, ended: 0 });

    // Webhooks hear of each: the kept ones updated (no longer pending) and their ledger entry, the other deleted.
    await deliverAll();
    const delivered = receiver.received.map((received) => receiver.verify(received, hook.secret));
    const of = (type: string) => delivered.filter((one) => one.type === type).map((one) => one.data);
    const kept = [member, optedOut, patched.id].sort();
    expect(of('contact.updated').map((data) => data.contactId).sort()).toEqual(kept);
    for (const data of of('contact.updated')) expect(data).toMatchObject({ pending: false, unsubscribed: true, subscribed: false, reason: 'unconfirmed' });
    expect(of('contact.consent_changed').map((data) => data.contactId).sort()).toEqual(kept);
    for (const data of of('contact.consent_changed')) expect(data).toMatchObject({ action: 'unsubscribed', via: 'retention' });
    expect(of('contact.deleted')).toEqual([expect.objectContaining({ contactId: made.id, reason: 'unconfirmed' })]);
  });
});
