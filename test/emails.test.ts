import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { domains, emailAttachments, emailEvents, emailRecipients, emails, events, organizations } from '@/db/schema';
import { suppressAddress } from '@/server/services/suppressions/suppressions';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { SANDBOX_DOMAIN: 'sandbox.eumail.eu' } });
});
afterAll(() => app.close());

let org: { organizationId: string; apiKey: string };
let domainId: string;
beforeEach(async () => {
  await app.reset();
  org = await app.createOrg({ ownerEmail: 'owner@acme.example.com' });
  const domain = await app.request('POST', '/api/domains', { key: org.apiKey, body: { name: 'acme.example.com' } });
  domainId = domain.body.id;
  await app.runtime.deps.db.update(domains).set({ status: 'verified', verifiedAt: app.clock.now() }).where(eq(domains.id, domainId));
  app.dns.mx('example.net', 'mx.example.net');
});

const message = (overrides: Record<string, unknown> = {}) => ({
  from: 'Acme <hello@acme.example.com>',
  to: 'ada@example.net',
  subject: 'Your receipt',
  html: '<p>Thanks</p>',
  text: 'Thanks',
  ...overrides,
});
const send = (body: unknown, key = org.apiKey, headers: Record<string, string> = {}) => app.request('POST', '/api/emails', { key, body, headers });
const stored = () => app.runtime.deps.db.select().from(emails);

describe('POST /emails', () => {
  it('answers { id } at once with the email queued, and keeps every field for the detail read', async () => {
    const response = await send(
      message({ cc: ['Bob <bob@example.net>'], bcc: 'carol@example.net', reply_to: 'help@acme.example.com', tags: [{ name: 'kind', value: 'receipt' }], headers: { 'X-Order': '42' } }),
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const detail = (await app.request('GET', `/api/emails/${response.body.id}`, { key: org.apiKey })).body;
    expect(detail).toMatchObject({
      id: response.body.id,
      from: 'Acme <hello@acme.example.com>',
      to: ['ada@example.net'],
      cc: ['Bob <bob@example.net>'],
      bcc: ['carol@example.net'],
      replyTo: ['help@acme.example.com'],
      subject: 'Your receipt',
      html: '<p>Thanks</p>',
      text: 'Thanks',
      headers: { 'X-Order': '42' },
      tags: [{ name: 'kind', value: 'receipt' }],
      status: 'queued',
      scheduledAt: null,
      tracking: { opens: false, clicks: false },
      attachments: [],
    });
    expect(detail.events.map((e: { type: string }) => e.type)).toEqual(['email.queued']);
  });

  it('schedules with scheduled_at, keeps attachments listed, and takes tracking from the domain unless told', async () => {
    await app.runtime.deps.db.update(domains).set({ openTracking: true }).where(eq(domains.id, domainId));
    const at = new Date(app.clock.now().getTime() + 3_600_000).toISOString();
    const content = Buffer.from('%PDF-1.4 receipt').toString('base64');
    const response = await send(message({ scheduled_at: at, attachments: [{ filename: 'receipt.pdf', content, content_type: 'application/pdf' }], tracking: { clicks: true } }));
    const detail = (await app.request('GET', `/api/emails/${response.body.id}`, { key: org.apiKey })).body;
    expect(detail).toMatchObject({ status: 'scheduled', scheduledAt: at, tracking: { opens: true, clicks: true } });
    expect(detail.attachments).toEqual([{ id: expect.any(String), filename: 'receipt.pdf', contentType: 'application/pdf', size: 16, expired: false }]);
    expect(detail.events.map((e: { type: string }) => e.type)).toEqual(['email.scheduled']);
  });

  it('tells acceptance once: from the email when not stored, from its row for an email stored with one', async () => {
    const fresh = (await send(message())).body.id;
    const older = (await send(message({ to: 'bob@example.net' }))).body.id;
    const db = app.runtime.deps.db;
    expect(await db.select().from(emailEvents).where(eq(emailEvents.type, 'email.queued'))).toEqual([]);
    // An email accepted before the acceptance entry was told on read kept it as a row.
    const [row] = await db.select().from(emails).where(eq(emails.id, older));
    await db.insert(emailEvents).values({ id: row!.id, emailId: older, organizationId: org.organizationId, type: 'email.queued', recipient: null, data: {}, createdAt: row!.createdAt });
    for (const id of [fresh, older]) {
      const detail = (await app.request('GET', `/api/emails/${id}`, { key: org.apiKey })).body;
      expect(detail.events).toEqual([{ type: 'email.queued', recipient: null, data: {}, createdAt: detail.createdAt }]);
      const record = (await app.request('GET', `/api/emails/${id}/processing-record`, { key: org.apiKey })).body;
      expect(record.events).toEqual([{ type: 'email.queued', count: 1, withClientData: 0 }]);
    }
  });

  it('keeps an attachment with content_id as an inline part of the HTML', async () => {
    const logo = Buffer.from('png bytes').toString('base64');
    const response = await send(message({ html: '<img src="cid:logo">', attachments: [{ filename: 'logo.png', content: logo, content_type: 'image/png', content_id: 'logo' }] }));
    expect(response.status, response.text).toBe(200);
    const [row] = await app.runtime.deps.db.select({ contentId: emailAttachments.contentId }).from(emailAttachments).where(eq(emailAttachments.emailId, response.body.id));
    expect(row).toEqual({ contentId: 'logo' });
    const refused = await send(message({ attachments: [{ filename: 'a.png', content: logo, content_id: 'has space' }] }));
    expect(refused.body.error).toMatch(/content_id: must be a Content-ID/);
  });

  it.each([
    [{ from: 'not an address' }, /from/],
    [{ to: [] }, /to: needs at least one recipient/],
    [{ to: Array.from({ length: 51 }, (_, i) => `r${i}@example.net`) }, /at most 50 recipients/],
    [{ html: undefined, text: undefined }, /give html, text or both/],
    [{ subject: 'Hi\r\nBcc: victim@example.net' }, /subject: must not contain CR, LF or NUL/],
    [{ headers: { 'X-Test': 'a\r\nBcc: x@y.z' } }, /must not contain CR, LF or NUL/],
    [{ headers: { From: 'ceo@bank.example' } }, /From.*is not a header you can set/],
    [{ tags: [{ name: 'bad tag', value: 'x' }] }, /tags.0.name/],
    [{ attachments: [{ filename: 'a.txt', content: '***' }] }, /attachments.0.content: must be base64/],
    [{ scheduled_at: 'tomorrow' }, /scheduled_at: must be an ISO 8601/],
    [{ scheduled_at: '2026-11-21T09:00:00Z' }, /scheduled_at: must be in the future/],
    [{ scheduled_at: '2027-02-01T00:00:00Z' }, /at most 30 days ahead/],
    [{ priority: 'high' }, /priority/],
  ])('refuses %j with VALIDATION_ERROR and stores nothing', async (overrides, error) => {
    const response = await send(message(overrides));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.error).toMatch(error);
    expect(await stored()).toHaveLength(0);
  });
});

describe('Idempotency-Key', () => {
  it('answers a repeat with the first email and sends nothing more, for 24 hours', async () => {
    const first = await send(message(), org.apiKey, { 'Idempotency-Key': 'order-42' });
    const again = await send(message({ subject: 'changed' }), org.apiKey, { 'Idempotency-Key': 'order-42' });
    expect(again.body.id).toBe(first.body.id);
    expect(await stored()).toHaveLength(1);
    app.clock.advance(24 * 3_600_000 + 1);
    const later = await send(message(), org.apiKey, { 'Idempotency-Key': 'order-42' });
    expect(later.body.id).not.toBe(first.body.id);
    expect(await stored()).toHaveLength(2);
  });

  it('creates one email from twenty concurrent requests with one key', async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, () => send(message(), org.apiKey, { 'Idempotency-Key': 'burst' })));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect(await stored()).toHaveLength(1);
  });

  it('refuses a key longer than 255 characters', async () => {
    const response = await send(message(), org.apiKey, { 'Idempotency-Key': 'k'.repeat(256) });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('refusals before queueing', () => {
  const expectRefusal = async (response: { status: number; body: any }, status: number, code: string) => {
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error: expect.any(String), code });
    expect(await stored()).toHaveLength(0);
  };

  it('403 FORBIDDEN from a domain other than the key is pinned to, the sandbox included', async () => {
    const other = await app.request('POST', '/api/domains', { key: org.apiKey, body: { name: 'other.example.com' } });
    await app.runtime.deps.db.update(domains).set({ status: 'verified', verifiedAt: app.clock.now() }).where(eq(domains.id, other.body.id));
    const pinned = await keyFor(app, org.organizationId, 'sending_access', 'live', other.body.id);
    await expectRefusal(await send(message(), pinned), 403, 'FORBIDDEN');
    await expectRefusal(await send(message({ from: 'hi@sandbox.eumail.eu', to: 'owner@acme.example.com' }), pinned), 403, 'FORBIDDEN');
    expect((await send(message({ from: 'hi@other.example.com' }), pinned)).status).toBe(200);
  });

  it.each([
    ['restricted', 'ACCOUNT_RESTRICTED'],
    ['suspended', 'SENDING_SUSPENDED'],
    ['paused', 'SERVICE_PAUSED'],
  ] as const)('403 for an account %s: %s', async (status, code) => {
    await app.runtime.deps.db.update(organizations).set({ status }).where(eq(organizations.id, org.organizationId));
    await expectRefusal(await send(message()), 403, code);
  });

  it('403 DOMAIN_NOT_VERIFIED for an unverified or unknown sending domain', async () => {
    await app.runtime.deps.db.update(domains).set({ status: 'pending' }).where(eq(domains.id, domainId));
    await expectRefusal(await send(message()), 403, 'DOMAIN_NOT_VERIFIED');
    await expectRefusal(await send(message({ from: 'a@unknown.example.org' })), 403, 'DOMAIN_NOT_VERIFIED');
  });

  it('403 SENDER_NOT_PERMITTED for a display name claiming an unrelated brand', async () => {
    await expectRefusal(await send(message({ from: 'PayPal Security <hello@acme.example.com>' })), 403, 'SENDER_NOT_PERMITTED');
  });

  it('403 ALL_SUPPRESSED when every recipient is suppressed; otherwise sends the rest and records the suppressed', async () => {
    await suppressAddress(app.runtime.deps.db, app.runtime.deps, { organizationId: org.organizationId, email: 'ada@example.net', reason: 'bounce' });
    await expectRefusal(await send(message()), 403, 'ALL_SUPPRESSED');
    const partial = await send(message({ to: ['ADA@example.net', 'bob@example.net'] }));
    expect(partial.status).toBe(200);
    const events = (await app.request('GET', `/api/emails/${partial.body.id}`, { key: org.apiKey })).body.events;
    expect(events.map((e: { type: string; recipient: string | null }) => [e.type, e.recipient])).toEqual([
      ['email.queued', null],
      ['email.suppressed', 'ADA@example.net'],
    ]);
  });

  it('403 RECIPIENT_DOMAIN_UNDELIVERABLE when no recipient domain has MX or address records', async () => {
    await expectRefusal(await send(message({ to: 'x@nowhere.example.org' })), 403, 'RECIPIENT_DOMAIN_UNDELIVERABLE');
    app.dns.a('a-only.example.org', '192.0.2.10');
    expect((await send(message({ to: 'x@a-only.example.org' }))).status).toBe(200);
  });

  it('lets the sandbox domain send to the owner only', async () => {
    app.dns.mx('acme.example.com', 'mx.acme.example.com');
    expect((await send(message({ from: 'Try <hi@sandbox.eumail.eu>', to: 'Owner@acme.example.com' }))).status).toBe(200);
    await app.runtime.deps.db.delete(emails);
    await expectRefusal(await send(message({ from: 'hi@sandbox.eumail.eu', to: 'ada@example.net' })), 403, 'FORBIDDEN');
  });
});

describe('POST /emails/batch', () => {
  it('answers one outcome per item in order; a refused item never fails the batch', async () => {
    const response = await app.request('POST', '/api/emails/batch', {
      key: org.apiKey,
      body: [message(), message({ from: 'a@unknown.example.org' }), message({ to: 'nope' }), message({ scheduled_at: '2026-11-22T00:00:00Z' }), message({ subject: 'third' })],
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      { id: expect.any(String) },
      { error: expect.stringMatching(/not a verified domain/), code: 'DOMAIN_NOT_VERIFIED' },
      { error: expect.stringMatching(/^to/), code: 'VALIDATION_ERROR' },
      { error: expect.stringMatching(/scheduled_at/), code: 'VALIDATION_ERROR' },
      { id: expect.any(String) },
    ]);
    expect(await stored()).toHaveLength(2);
  });

  it('stores a full batch in order, each email with its history and event-log rows; suppression, brand and DNS refusals stay per item', async () => {
    const db = app.runtime.deps.db;
    await suppressAddress(db, app.runtime.deps, { organizationId: org.organizationId, email: 'gone@example.net', reason: 'manual' });
    const body = Array.from({ length: 100 }, (_, n) => message({ subject: `item ${n}`, to: `user${n}@example.net` }));
    body[10] = message({ subject: 'item 10', to: 'GONE@example.net' });
    body[11] = message({ subject: 'item 11', to: ['gone@example.net', 'kept@example.net'] });
    body[12] = message({ subject: 'item 12', from: 'PayPal Support <hello@acme.example.com>' });
    body[13] = message({ subject: 'item 13', to: 'someone@nowhere.example.org' });
    const response = await app.request('POST', '/api/emails/batch', { key: org.apiKey, body });
    expect(response.status, response.text).toBe(200);
    const data = response.body.data as Array<{ id?: string; code?: string }>;
    expect(data).toHaveLength(100);
    expect(data[10]).toEqual({ error: expect.any(String), code: 'ALL_SUPPRESSED' });
    expect(data[12]).toEqual({ error: expect.any(String), code: 'SENDER_NOT_PERMITTED' });
    expect(data[13]).toEqual({ error: expect.any(String), code: 'RECIPIENT_DOMAIN_UNDELIVERABLE' });
    const accepted = data.flatMap((outcome, n) => (outcome.id ? [{ id: outcome.id, n }] : []));
    expect(accepted).toHaveLength(97);

    const rows = new Map((await stored()).map((row) => [row.id, row]));
    expect(rows.size).toBe(97);
    for (const { id, n } of accepted) expect(rows.get(id)).toMatchObject({ subject: `item ${n}`, status: 'queued', organizationId: org.organizationId, mode: 'live' });
    const recipients = await db
      .select({ address: emailRecipients.address, status: emailRecipients.status, attempts: emailRecipients.attempts })
      .from(emailRecipients)
      .where(eq(emailRecipients.emailId, data[11]!.id!))
      .orderBy(asc(emailRecipients.recipientIndex));
    expect(recipients).toEqual([
      { address: 'gone@example.net', status: 'suppressed', attempts: 0 },
      { address: 'kept@example.net', status: 'pending', attempts: 0 },
    ]);
    const history = await db.select().from(emailEvents);
    // Acceptance is told from the email on read, not stored (emails/history.ts); what else happened is.
    expect(history.filter((event) => event.type === 'email.queued')).toEqual([]);
    expect(history.filter((event) => event.type === 'email.suppressed')).toEqual([expect.objectContaining({ emailId: data[11]!.id, recipient: 'gone@example.net' })]);
    const logged = (await db.select().from(events).where(eq(events.organizationId, org.organizationId))).filter((event) => event.type.startsWith('email.'));
    expect(logged).toHaveLength(98);
    const about = (n: number, to: string[]) => ({ emailId: data[n]!.id, mode: 'live', from: 'Acme <hello@acme.example.com>', to, subject: `item ${n}`, tags: [] });
    expect(logged.find((event) => event.data.emailId === data[0]!.id)).toMatchObject({ type: 'email.queued', data: about(0, ['user0@example.net']) });
    expect(logged.filter((event) => event.data.emailId === data[11]!.id).map(({ type, data: eventData }) => ({ type, data: eventData }))).toEqual(
      expect.arrayContaining([
        { type: 'email.queued', data: about(11, ['gone@example.net', 'kept@example.net']) },
        { type: 'email.suppressed', data: { ...about(11, ['gone@example.net', 'kept@example.net']), recipient: 'gone@example.net', reason: 'on the suppression list' } },
      ]),
    );
    const stamped = rows.get(data[0]!.id!)!.createdAt.toISOString();
    expect(history.filter((event) => event.emailId === data[0]!.id)).toEqual([]);
    const read = async (n: number) => (await app.request('GET', `/api/emails/${data[n]!.id}`, { key: org.apiKey })).body.events;
    expect(await read(0)).toEqual([{ type: 'email.queued', recipient: null, data: {}, createdAt: stamped }]);
    expect(await read(11)).toEqual([
      { type: 'email.queued', recipient: null, data: {}, createdAt: expect.any(String) },
      { type: 'email.suppressed', recipient: 'gone@example.net', data: { reason: 'on the suppression list' }, createdAt: expect.any(String) },
    ]);
  });

  it.each([
    [{ from: 'x' }, /JSON array/],
    [[], /1 to 100/],
    [Array.from({ length: 101 }, () => ({})), /1 to 100/],
  ])('refuses a body that is not an array of 1 to 100 items', async (body, error) => {
    const response = await app.request('POST', '/api/emails/batch', { key: org.apiKey, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: expect.stringMatching(error), code: 'VALIDATION_ERROR' });
  });
});

describe('GET /emails', () => {
  it('filters by status, exact sender, any recipient (case-insensitive) and tags (ANDed), newest first with cursors', async () => {
    const ids: string[] = [];
    const at = new Date(app.clock.now().getTime() + 3_600_000).toISOString();
    const bodies = [
      message({ to: 'Ada@Example.net', tags: [{ name: 'kind', value: 'receipt' }, { name: 'shop', value: 'eu' }] }),
      message({ to: 'bob@example.net', tags: [{ name: 'kind', value: 'reset' }] }),
      message({ from: 'billing@acme.example.com', cc: 'ada@example.net', tags: [{ name: 'kind', value: 'receipt' }] }),
      message({ to: 'carol@example.net', scheduled_at: at }),
    ];
    for (const body of bodies) {
      app.clock.advance(1);
      ids.push((await send(body)).body.id);
    }
    const list = async (query: string) => (await app.request('GET', `/api/emails${query}`, { key: org.apiKey })).body;
    expect((await list('')).data.map((e: { id: string }) => e.id)).toEqual([...ids].reverse());
    expect((await list('?status=scheduled')).data.map((e: { id: string }) => e.id)).toEqual([ids[3]]);
    expect((await list('?from=BILLING@acme.example.com')).data.map((e: { id: string }) => e.id)).toEqual([ids[2]]);
    expect((await list('?to=ADA@example.NET')).data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[0]]);
    expect((await list('?tag=kind:receipt')).data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[0]]);
    expect((await list('?tag=kind:receipt&tag=shop')).data.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
    expect((await list('?tag=kind&to=bob@example.net')).data.map((e: { id: string }) => e.id)).toEqual([ids[1]]);
    const first = await list('?limit=3');
    expect(first.data).toHaveLength(3);
    expect(first.next_cursor).toBe(ids[1]);
    const second = await list(`?limit=3&cursor=${first.next_cursor}`);
    expect(second).toEqual({ data: [expect.objectContaining({ id: ids[0] })], next_cursor: null });
  });

  it('validates the query', async () => {
    for (const query of ['?limit=0', '?limit=101', '?status=lost', '?cursor=abc']) {
      const response = await app.request('GET', `/api/emails${query}`, { key: org.apiKey });
      expect(response.status, query).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('keeps test and live emails apart', async () => {
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const live = (await send(message())).body.id;
    const test = (await send(message(), testKey)).body.id;
    expect((await app.request('GET', '/api/emails', { key: org.apiKey })).body.data.map((e: { id: string }) => e.id)).toEqual([live]);
    expect((await app.request('GET', '/api/emails', { key: testKey })).body.data.map((e: { id: string }) => e.id)).toEqual([test]);
    expect((await app.request('GET', `/api/emails/${live}`, { key: testKey })).status).toBe(404);
    expect((await app.request('GET', `/api/emails/${test}`, { key: org.apiKey })).status).toBe(404);
  });
});

describe('PATCH /emails/{id} and POST /emails/{id}/cancel', () => {
  it('moves and cancels a scheduled email; once it is not scheduled both answer 409', async () => {
    const at = new Date(app.clock.now().getTime() + 3_600_000).toISOString();
    const later = new Date(app.clock.now().getTime() + 7_200_000).toISOString();
    const id = (await send(message({ scheduled_at: at }))).body.id;
    const moved = await app.request('PATCH', `/api/emails/${id}`, { key: org.apiKey, body: { scheduled_at: later } });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({ id, scheduledAt: later });
    const canceled = await app.request('POST', `/api/emails/${id}/cancel`, { key: org.apiKey });
    expect(canceled.body).toEqual({ id, status: 'canceled' });
    for (const [method, path, body] of [['PATCH', `/api/emails/${id}`, { scheduled_at: later }], ['POST', `/api/emails/${id}/cancel`, undefined]] as const) {
      const refused = await app.request(method, path, { key: org.apiKey, body });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('CONFLICT');
    }
    const queued = (await send(message())).body.id;
    expect((await app.request('POST', `/api/emails/${queued}/cancel`, { key: org.apiKey })).status).toBe(409);
    const events = (await app.request('GET', `/api/emails/${id}`, { key: org.apiKey })).body.events.map((e: { type: string }) => e.type);
    expect(events).toEqual(['email.scheduled', 'email.scheduled', 'email.canceled']);
  });

  it('never both cancels and reschedules when the two race', async () => {
    const at = new Date(app.clock.now().getTime() + 3_600_000).toISOString();
    const id = (await send(message({ scheduled_at: at }))).body.id;
    const [cancel, cancelAgain] = await Promise.all([
      app.request('POST', `/api/emails/${id}/cancel`, { key: org.apiKey }),
      app.request('POST', `/api/emails/${id}/cancel`, { key: org.apiKey }),
    ]);
    expect([cancel.status, cancelAgain.status].sort()).toEqual([200, 409]);
  });
});
