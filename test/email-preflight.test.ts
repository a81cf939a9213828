import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { domains, emailEvents, emails, events, organizations, usageCounters, webhookDeliveries } from '@/db/schema';
import { suppressAddress } from '@/server/services/suppressions/suppressions';
import { GMAIL_CLIP_BYTES } from '@/server/services/emails/preflight/warnings/html-size';
import { startTestApp, type TestApp, type TestResponse } from './support/app';
import { keyFor } from './support/keys';
import { sendingOrg } from './support/sending-org';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { SANDBOX_DOMAIN: 'sandbox.eumail.eu' } });
});
afterAll(() => app.close());

let org: { organizationId: string; apiKey: string; domainId: string };
beforeEach(async () => {
  await app.reset();
  app.clock.set('2026-11-21T12:00:00.000Z');
  org = await sendingOrg(app, { plan: 'free', ownerEmail: 'owner@acme.example.com' });
});

const deps = () => app.runtime.deps;
const message = (overrides: Record<string, unknown> = {}) => ({ from: 'Acme <hello@acme.example.com>', to: 'ada@example.net', subject: 'Your receipt', html: '<p>Thanks</p>', text: 'Thanks', ...overrides });
const post = (path: string, body: unknown, key = org.apiKey, headers: Record<string, string> = {}) => app.request('POST', `/api${path}`, { key, body, headers });
const preflight = (body: unknown, key = org.apiKey, headers: Record<string, string> = {}) => post('/emails/preflight', body, key, headers);

/** Everything a send writes: emails and their history, the event log, webhook deliveries and the counters. */
async function written(): Promise<string> {
  const db = deps().db;
  const n = async (table: typeof emails | typeof emailEvents | typeof events | typeof webhookDeliveries) => (await db.select({ n: count() }).from(table))[0]!.n;
  const counters = await db.select().from(usageCounters).where(eq(usageCounters.organizationId, org.organizationId));
  return JSON.stringify({ emails: await n(emails), history: await n(emailEvents), events: await n(events), deliveries: await n(webhookDeliveries), counters });
}

/** Stands for earlier sends: the counters as the store statement leaves them. */
async function prime(values: { dayRecipients?: number; monthRecipients?: number; listRecipients?: number }) {
  const now = app.clock.now().toISOString();
  const row = { organizationId: org.organizationId, day: now.slice(0, 10), month: `${now.slice(0, 7)}-01`, dayRecipients: 0, monthRecipients: 0, listRecipients: 0, ...values };
  await deps().db.insert(usageCounters).values(row).onConflictDoUpdate({ target: usageCounters.organizationId, set: row });
}

const usage = async () => (await app.request('GET', '/api/usage', { key: org.apiKey })).body;
const template = async (body: Record<string, unknown>) => (await post('/templates', { name: 'T', ...body })).body.id as string;
const setStatus = (status: 'restricted' | 'suspended' | 'paused') => deps().db.update(organizations).set({ status }).where(eq(organizations.id, org.organizationId));

/** The verdict must say what the send then did: the same status, and a refusal word for word. */
function expectSameAnswer(verdict: TestResponse, sent: TestResponse) {
  expect(verdict.status, verdict.text).toBe(200);
  expect(verdict.body.status).toBe(sent.status);
  if (sent.status === 200) {
    expect(verdict.body).toMatchObject({ accepted: true, refusal: null });
  } else {
    expect(verdict.body).toMatchObject({ accepted: false, refusal: sent.body });
  }
}

interface Case {
  name: string;
  /** What POST /emails answers, so the table cannot pass by both being wrong the same way. */
  expected: 'accepted' | string;
  setup?: () => Promise<void>;
  body: () => Promise<Record<string, unknown>> | Record<string, unknown>;
  key?: () => Promise<string>;
}

const CASES: Case[] = [
  { name: 'an email that is sent', expected: 'accepted', body: () => message() },
  { name: 'an email from a template', expected: 'accepted', body: async () => message({ subject: undefined, html: undefined, text: undefined, template_id: await template({ subject: 'Hi {{ name }}', html: '<p>{{ name }}</p>' }), variables: { name: 'Ada' } }) },
  { name: 'a scheduled email', expected: 'accepted', body: () => message({ scheduled_at: '2026-11-22T09:00:00Z' }) },
  { name: 'a template rendering an empty subject', expected: 'VALIDATION_ERROR', body: async () => message({ subject: undefined, html: undefined, text: undefined, template_id: await template({ subject: '{{ title }}', text: 'x' }) }) },
  { name: 'scheduled_at in the past', expected: 'VALIDATION_ERROR', body: () => message({ scheduled_at: '2026-11-20T09:00:00Z' }) },
  { name: 'a template that is not the account\'s', expected: 'NOT_FOUND', body: () => message({ subject: undefined, html: undefined, text: undefined, template_id: '00000000-0000-4000-8000-000000000000' }) },
  { name: 'the sandbox domain to someone else than the owner', expected: 'FORBIDDEN', body: () => message({ from: 'hi@sandbox.eumail.eu' }) },
  {
    name: "an owner's address not confirmed yet",
    expected: 'ACCOUNT_RESTRICTED',
    setup: () => deps().db.update(organizations).set({ ownerConfirmedAt: null }).where(eq(organizations.id, org.organizationId)).then(() => undefined),
    body: () => message(),
  },
  { name: 'an account on hold', expected: 'ACCOUNT_RESTRICTED', setup: () => setStatus('restricted').then(() => undefined), body: () => message() },
  { name: 'a suspended account', expected: 'SENDING_SUSPENDED', setup: () => setStatus('suspended').then(() => undefined), body: () => message() },
  { name: 'a paused account', expected: 'SERVICE_PAUSED', setup: () => setStatus('paused').then(() => undefined), body: () => message() },
  { name: 'a test key of a suspended account (test mode sends nothing)', expected: 'accepted', setup: () => setStatus('suspended').then(() => undefined), key: () => keyFor(app, org.organizationId, 'full_access', 'test'), body: () => message() },
  { name: 'a domain that is not the account\'s', expected: 'DOMAIN_NOT_VERIFIED', body: () => message({ from: 'a@unknown.example.org' }) },
  {
    name: 'a domain not verified yet',
    expected: 'DOMAIN_NOT_VERIFIED',
    setup: () => deps().db.update(domains).set({ status: 'pending' }).where(eq(domains.id, org.domainId)).then(() => undefined),
    body: () => message(),
  },
  { name: 'a display name claiming a brand', expected: 'SENDER_NOT_PERMITTED', body: () => message({ from: 'PayPal Security <hello@acme.example.com>' }) },
  {
    name: 'every recipient suppressed',
    expected: 'ALL_SUPPRESSED',
    setup: () => suppressAddress(deps().db, deps(), { organizationId: org.organizationId, email: 'ada@example.net', reason: 'bounce' }).then(() => undefined),
    body: () => message({ to: 'ADA@example.net' }),
  },
  { name: 'no recipient domain taking mail', expected: 'RECIPIENT_DOMAIN_UNDELIVERABLE', body: () => message({ to: 'x@nowhere.example.org' }) },
  { name: 'today\'s ceiling reached', expected: 'DAILY_LIMIT_EXCEEDED', setup: async () => prime({ dayRecipients: (await usage()).today.ceiling, monthRecipients: (await usage()).today.ceiling }), body: () => message() },
  { name: 'the monthly quota used', expected: 'MONTHLY_LIMIT_EXCEEDED', setup: async () => prime({ monthRecipients: (await usage()).month.quota }), body: () => message() },
  { name: 'a test key past the limits (test mode counts nothing)', expected: 'accepted', setup: async () => prime({ monthRecipients: (await usage()).month.quota }), key: () => keyFor(app, org.organizationId, 'full_access', 'test'), body: () => message() },
];

describe('POST /emails/preflight answers what POST /emails then does', () => {
  it.each(CASES)('$name: $expected', async (testCase) => {
    await testCase.setup?.();
    const key = testCase.key ? await testCase.key() : org.apiKey;
    const body = await testCase.body();
    const before = await written();
    const verdict = await preflight(body, key);
    expect(await written(), 'a preflight stores and counts nothing').toBe(before);
    const sent = await post('/emails', body, key);
    expect(testCase.expected === 'accepted' ? sent.status : sent.body.code, sent.text).toBe(testCase.expected === 'accepted' ? 200 : testCase.expected);
    expectSameAnswer(verdict, sent);
  });

  it('covers every refusal POST /emails makes after its body parses (but the Idempotency-Key race and the pinned key, which preflight cannot meet)', () => {
    const codes = new Set(CASES.map((c) => c.expected));
    for (const code of ['VALIDATION_ERROR', 'NOT_FOUND', 'FORBIDDEN', 'ACCOUNT_RESTRICTED', 'SENDING_SUSPENDED', 'SERVICE_PAUSED', 'DOMAIN_NOT_VERIFIED', 'SENDER_NOT_PERMITTED', 'ALL_SUPPRESSED', 'RECIPIENT_DOMAIN_UNDELIVERABLE', 'DAILY_LIMIT_EXCEEDED', 'MONTHLY_LIMIT_EXCEEDED']) {
      expect(codes, code).toContain(code);
    }
  });

  it('refuses a body POST /emails refuses as malformed with the same 400, and malformed JSON alike', async () => {
    for (const body of [message({ to: 'nope' }), message({ subject: undefined }), message({ headers: { From: 'x@evil.example' } }), message({ html: undefined, text: undefined })]) {
      const verdict = await preflight(body);
      const sent = await post('/emails', body);
      expect(sent.status).toBe(400);
      expect({ status: verdict.status, body: verdict.body }).toEqual({ status: sent.status, body: sent.body });
    }
    const raw = await app.request('POST', '/api/emails/preflight', { key: org.apiKey, rawBody: '{"from":', headers: { 'content-type': 'application/json' } });
    expect(raw.status).toBe(400);
    expect(raw.body.code).toBe('VALIDATION_ERROR');
    expect(await deps().db.select({ n: count() }).from(emails)).toEqual([{ n: 0 }]);
  });

  it('answers with the email an Idempotency-Key already took, as POST /emails would', async () => {
    const first = await post('/emails', message(), org.apiKey, { 'Idempotency-Key': 'order-42' });
    const verdict = await preflight(message({ subject: 'changed' }), org.apiKey, { 'Idempotency-Key': 'order-42' });
    expect(verdict.body).toMatchObject({ accepted: true, status: 200, replayOf: first.body.id });
    expect((await post('/emails', message(), org.apiKey, { 'Idempotency-Key': 'order-42' })).body).toEqual({ id: first.body.id });
    expect((await preflight(message(), org.apiKey, { 'Idempotency-Key': 'other' })).body.replayOf).toBeNull();
  });

  it('is full access only (the spec keeps sending_access keys to the send paths), and counts against the rate limit', async () => {
    // The Free plan holds one live key.
    await deps().db.update(organizations).set({ plan: '10k' }).where(eq(organizations.id, org.organizationId));
    const sendingKey = await keyFor(app, org.organizationId, 'sending_access', 'live');
    for (const path of ['/emails/preflight', '/emails/batch/preflight']) {
      const refused = await post(path, path.includes('batch') ? [message()] : message(), sendingKey);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('FORBIDDEN');
    }
    expect((await post('/emails', message(), sendingKey)).status).toBe(200);
    const first = await preflight(message());
    const second = await post('/emails/batch/preflight', [message()]);
    expect(Number(second.headers.get('ratelimit-remaining'))).toBe(Number(first.headers.get('ratelimit-remaining')) - 1);
  });

  it('does not reach another organization\'s template: the same 404 as a send', async () => {
    const other = await app.createOrg({ plan: 'free' });
    const theirs = (await post('/templates', { name: 'T', subject: 'S', text: 'x' }, other.apiKey)).body.id;
    const body = message({ subject: undefined, html: undefined, text: undefined, template_id: theirs });
    const verdict = await preflight(body);
    expect(verdict.body.refusal).toEqual({ error: 'Template not found', code: 'NOT_FOUND' });
    expect(verdict.body.refusal).toEqual((await post('/emails', body)).body);
  });
});

describe('POST /emails/batch/preflight answers what POST /emails/batch then does, item by item', () => {
  const sameAnswers = async (body: unknown[]) => {
    const before = await written();
    const verdicts = await post('/emails/batch/preflight', body);
    expect(verdicts.status, verdicts.text).toBe(200);
    expect(await written(), 'a preflight stores and counts nothing').toBe(before);
    const sent = await post('/emails/batch', body);
    expect(sent.status, sent.text).toBe(200);
    expect(verdicts.body.data).toHaveLength(sent.body.data.length);
    sent.body.data.forEach((outcome: { id?: string; error?: string; code?: string }, i: number) => {
      const verdict = verdicts.body.data[i];
      if (outcome.id) expect(verdict, `item ${i}`).toMatchObject({ accepted: true, status: 200, refusal: null });
      else expect(verdict, `item ${i}`).toMatchObject({ accepted: false, refusal: outcome });
    });
    return { verdicts: verdicts.body.data, sent: sent.body.data };
  };

  it('refuses the same items with the same codes, and accepts the rest', async () => {
    await suppressAddress(deps().db, deps(), { organizationId: org.organizationId, email: 'gone@example.net', reason: 'manual' });
    const templateId = await template({ subject: 'Hi {{ name }}', text: 'Hello {{ name }}' });
    const { sent } = await sameAnswers([
      message(),
      message({ to: 'nope' }),
      message({ from: 'a@unknown.example.org' }),
      message({ from: 'PayPal Security <hello@acme.example.com>' }),
      message({ to: 'gone@example.net' }),
      message({ to: 'x@nowhere.example.org' }),
      message({ subject: undefined, html: undefined, text: undefined, template_id: templateId, variables: { name: 'Ada' } }),
      message({ subject: undefined, html: undefined, text: undefined, template_id: '00000000-0000-4000-8000-000000000000' }),
      message({ scheduled_at: '2026-11-22T00:00:00Z' }),
    ]);
    expect(sent.map((outcome: { code?: string }) => outcome.code ?? 'accepted')).toEqual([
      'accepted', 'VALIDATION_ERROR', 'DOMAIN_NOT_VERIFIED', 'SENDER_NOT_PERMITTED', 'ALL_SUPPRESSED', 'RECIPIENT_DOMAIN_UNDELIVERABLE', 'accepted', 'NOT_FOUND', 'VALIDATION_ERROR',
    ]);
  });

  it('allots the limits in order as the batch does: LIST_SEND_HELD past the allowance, DAILY_LIMIT_EXCEEDED past the ceiling', async () => {
    await prime({ listRecipients: 495 });
    const listBatch = Array.from({ length: 12 }, (_, i) => message({ to: `reader${i}@example.net`, headers: { 'List-Unsubscribe': '<https://acme.example.com/u>' } }));
    const { verdicts, sent } = await sameAnswers(listBatch);
    expect(sent.filter((outcome: { code?: string }) => outcome.code === 'LIST_SEND_HELD')).toHaveLength(7);
    expect(verdicts[4].limits.listAllowance).toEqual({ limit: 500, used: 499, requested: 1, left: 0 });
    expect(verdicts[5].limits.listAllowance).toEqual({ limit: 500, used: 500, requested: 1, left: 0 });

    const ceiling = (await usage()).today.ceiling as number;
    await prime({ dayRecipients: ceiling - 2, monthRecipients: ceiling - 2 });
    const { sent: daily } = await sameAnswers([message({ to: ['a@example.net', 'b@example.net', 'c@example.net'] }), message({ subject: 'two', to: ['a@example.net', 'b@example.net'] }), message({ subject: 'one' })]);
    expect(daily.map((outcome: { code?: string }) => outcome.code ?? 'accepted')).toEqual(['DAILY_LIMIT_EXCEEDED', 'accepted', 'DAILY_LIMIT_EXCEEDED']);
  });

  it('refuses an empty or oversized batch whole, as the batch does', async () => {
    for (const body of [[], Array.from({ length: 101 }, () => message())]) {
      const verdicts = await post('/emails/batch/preflight', body);
      const sent = await post('/emails/batch', body);
      expect(verdicts.status).toBe(400);
      expect(verdicts.body).toEqual(sent.body);
    }
  });
});

describe('what a verdict tells', () => {
  it('lists each recipient: sent, suppressed with the list\'s entry, or undeliverable', async () => {
    await suppressAddress(deps().db, deps(), { organizationId: org.organizationId, email: 'gone@example.net', reason: 'complaint' });
    const entry = (await app.request('GET', '/api/suppressions', { key: org.apiKey })).body.data[0];
    const verdict = (await preflight(message({ to: ['Ada <ada@example.net>', 'GONE@example.net'], cc: 'x@nowhere.example.org', bcc: 'audit@example.net' }))).body;
    expect(verdict.accepted).toBe(true);
    expect(verdict.recipients).toEqual([
      { email: 'Ada <ada@example.net>', field: 'to', outcome: 'send', suppression: null },
      { email: 'GONE@example.net', field: 'to', outcome: 'suppressed', suppression: { id: entry.id, reason: 'complaint', emailId: null, createdAt: entry.createdAt ?? entry.created_at } },
      { email: 'x@nowhere.example.org', field: 'cc', outcome: 'undeliverable', suppression: null },
      { email: 'audit@example.net', field: 'bcc', outcome: 'send', suppression: null },
    ]);
  });

  it('shows the recipients of an email refused as ALL_SUPPRESSED, so the entries can be looked at', async () => {
    await suppressAddress(deps().db, deps(), { organizationId: org.organizationId, email: 'ada@example.net', reason: 'unsubscribe' });
    const verdict = (await preflight(message())).body;
    expect(verdict).toMatchObject({ accepted: false, status: 403, refusal: { code: 'ALL_SUPPRESSED' }, limits: null });
    expect(verdict.recipients).toEqual([expect.objectContaining({ email: 'ada@example.net', outcome: 'suppressed', suppression: expect.objectContaining({ reason: 'unsubscribe' }) })]);
  });

  it('finds the suppression kept as a hash after the address was erased on request', async () => {
    await suppressAddress(deps().db, deps(), { organizationId: org.organizationId, email: 'ada@example.net', reason: 'unsubscribe' });
    const erased = await app.request('DELETE', `/api/recipients/${encodeURIComponent('ada@example.net')}/data`, { key: org.apiKey });
    expect(erased.status, erased.text).toBe(200);
    const verdict = (await preflight(message({ to: ['ada@example.net', 'bob@example.net'] }))).body;
    expect(verdict.recipients[0]).toEqual({ email: 'ada@example.net', field: 'to', outcome: 'suppressed', suppression: expect.objectContaining({ reason: 'unsubscribe', id: expect.any(String) }) });
    expect(verdict.recipients[1].outcome).toBe('send');
  });

  it('gives the limits the send would use and what is left, as GET /usage counts them', async () => {
    await prime({ dayRecipients: 10, monthRecipients: 40 });
    await suppressAddress(deps().db, deps(), { organizationId: org.organizationId, email: 'gone@example.net', reason: 'bounce' });
    const { today, month } = await usage();
    const verdict = (await preflight(message({ to: ['a@example.net', 'b@example.net', 'gone@example.net'] }))).body;
    expect(verdict.limits).toEqual({
      daily: { limit: today.ceiling, used: 10, requested: 2, left: today.ceiling - 12, resetsAt: '2026-11-22T00:00:00.000Z' },
      monthly: { limit: month.quota, used: 40, requested: 2, left: month.quota - 42, quota: month.quota, overage: false, resetsAt: '2026-12-01T00:00:00.000Z' },
      listAllowance: { limit: 500, used: 0, requested: 0, left: 500 },
    });
    await post('/emails', message({ to: ['a@example.net', 'b@example.net', 'gone@example.net'] }));
    expect((await usage()).today.recipients).toBe(12);

    await deps().db.update(organizations).set({ reviewed: true }).where(eq(organizations.id, org.organizationId));
    expect((await preflight(message())).body.limits.listAllowance).toBeNull();
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    expect((await preflight(message(), testKey)).body.limits).toBeNull();
  });

  it('renders a template\'s subject and bodies; an email with its own content has none to show', async () => {
    const templateId = await template({ subject: 'Order {{ order }}', html: '<p>Hi {{ name }}</p>', text: 'Hi {{ name }}' });
    const verdict = (await preflight(message({ subject: undefined, html: undefined, text: undefined, template_id: templateId, variables: { order: 42, name: 'Ada' } }))).body;
    expect(verdict.rendered).toEqual({ subject: 'Order 42', html: '<p>Hi Ada</p>', text: 'Hi Ada' });
    expect((await preflight(message())).body.rendered).toBeNull();
  });

  it('warns of nothing for a plain, aligned, text-and-HTML email', async () => {
    expect((await preflight(message())).body.warnings).toEqual([]);
  });

  it('says the text part of HTML without one will be derived from the HTML', async () => {
    const { warnings } = (await preflight(message({ text: undefined }))).body;
    expect(warnings).toEqual([{ code: 'text_part_derived', message: expect.stringMatching(/no text part, so the text part will be derived/) }]);
  });

  it('warns of HTML over Gmail\'s 102 KB as it is sent: with the tracking links rewritten', async () => {
    const links = Array.from({ length: 40 }, (_, i) => `<a href="https://acme.example.com/p/${i}">${i}</a>`).join('');
    const html = `<p>${'x'.repeat(GMAIL_CLIP_BYTES - links.length - 200)}</p>${links}`;
    expect(Buffer.byteLength(html)).toBeLessThan(GMAIL_CLIP_BYTES);
    expect((await preflight(message({ html }))).body.warnings).toEqual([]);
    const tracked = (await preflight(message({ html, tracking: { clicks: true } }))).body.warnings;
    expect(tracked).toEqual([{ code: 'html_clipped', message: expect.stringMatching(/as sent \(with the tracking links and pixel\), over Gmail's 102\.0 KB/) }]);
    const big = (await preflight(message({ html: `<p>${'y'.repeat(GMAIL_CLIP_BYTES)}</p>` }))).body.warnings;
    expect(big.map((w: { code: string }) => w.code)).toEqual(['html_clipped']);
  });

  it('warns of links through public URL shorteners, in HTML and text', async () => {
    const { warnings } = (await preflight(message({ html: '<a href="https://bit.ly/3abc">Track</a> <a href="https://acme.example.com/x">own</a>', text: 'See https://www.tinyurl.com/y2k' }))).body;
    expect(warnings).toEqual([{ code: 'url_shortener', message: expect.stringContaining('(bit.ly, tinyurl.com)') }]);
  });

  it('warns of list mail without List-Unsubscribe: a list-shaped batch, or headers that say bulk', async () => {
    const bulk = (await preflight(message({ headers: { Precedence: 'bulk' } }))).body.warnings;
    expect(bulk).toEqual([{ code: 'missing_unsubscribe', message: expect.stringMatching(/^The headers mark this email as list mail/) }]);
    expect((await preflight(message({ headers: { Precedence: 'bulk', 'List-Unsubscribe': '<mailto:u@acme.example.com>' } }))).body.warnings).toEqual([]);

    const newsletter = Array.from({ length: 10 }, (_, i) => message({ to: `reader${i}@example.net` }));
    const verdicts = (await post('/emails/batch/preflight', newsletter)).body.data;
    expect(verdicts.every((v: { warnings: Array<{ code: string }> }) => v.warnings.some((w) => w.code === 'missing_unsubscribe'))).toBe(true);
    const receipts = newsletter.map((item, i) => ({ ...item, subject: `Receipt ${i}` }));
    expect((await post('/emails/batch/preflight', receipts)).body.data.every((v: { warnings: unknown[] }) => v.warnings.length === 0)).toBe(true);
  });

  it('warns when receivers cannot verify the DKIM signature of the From domain (so it does not align), and not for the sandbox', async () => {
    const records = (await app.request('GET', `/api/domains/${org.domainId}`, { key: org.apiKey })).body.records as Array<{ record: string; name: string }>;
    app.dns.remove(records.find((record) => record.record === 'DKIM')!.name);
    const verdict = (await preflight(message())).body;
    expect(verdict.accepted).toBe(true);
    expect(verdict.warnings).toEqual([{ code: 'from_not_aligned', message: expect.stringMatching(/^From is acme\.example\.com, .*No DKIM record at /) }]);
    app.dns.mx('acme.example.com', 'mx.acme.example.com');
    const sandbox = (await preflight(message({ from: 'hi@sandbox.eumail.eu', to: 'owner@acme.example.com' }))).body;
    expect(sandbox).toMatchObject({ accepted: true, warnings: [] });
  });
});
