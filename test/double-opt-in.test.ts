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
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { DAY_MS, MINUTE_MS } from '@/server/services/shared/time';
import { sweepWebhookDeliveries } from '@/server/services/webhooks/deliver';
import { startTestApp, type TestApp } from './support/app';
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
  it('deletes a contact still pending 30 days after its last confirmation email, under the test clock, declaring retention', async () => {
    const audience = (await call('POST', '/audiences', { name: 'Old' })).body.id as string;
    const member = (await call('POST', `/audiences/${audience}/contacts`, { email: 'mo@example.net' })).body.id as string;
    await askToConfirm('mo@example.net');
    const late = await askToConfirm('nat@example.net');
    const kept = await askToConfirm('oz@example.net');
    await press(await storedLink('oz@example.net'));
    const count = async () => (await app.runtime.deps.db.select({ n: organizations.contactCount }).from(organizations).where(eq(organizations.id, org.organizationId)))[0]!.n;
    expect(await count()).toBe(3);

    app.clock.advance(20 * DAY_MS);
    // A re-send 20 days in gives nat 30 days from then.
    expect((await call('POST', `/contacts/${late.id}/confirmation`)).status).toBe(200);
    app.clock.advance(10 * DAY_MS - MINUTE_MS);
    expect(await deleteUnconfirmedContacts(app.runtime.deps)).toBe(0);
    app.clock.advance(2 * MINUTE_MS);
    expect(await deleteUnconfirmedContacts(app.runtime.deps)).toBe(1);
    expect((await call('GET', `/contacts/${member}`)).status).toBe(404);
    expect((await call('GET', `/audiences/${audience}`)).body.contactCount).toBe(0);
    expect(await count()).toBe(2);
    const deleted = await app.runtime.deps.db.select({ data: events.data }).from(events).where(eq(events.type, 'contact.deleted'));
    expect(deleted.map((event) => event.data)).toEqual([expect.objectContaining({ contactId: member, reason: 'unconfirmed' })]);

    app.clock.advance(20 * DAY_MS);
    expect(await deleteUnconfirmedContacts(app.runtime.deps)).toBe(1);
    expect((await call('GET', `/contacts/${late.id}`)).status).toBe(404);
    expect((await call('GET', `/contacts/${kept.id}`)).body).toMatchObject({ pending: false, unsubscribed: false });
    // The ledger outlives the contact.
    expect((await ledger(member)).map((entry) => entry.action)).toEqual(['subscribed', 'subscribed', 'pending']);
  });
});
