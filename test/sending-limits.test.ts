import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { emails, organizations, systemEmails, usageCounters } from '@/db/schema';
import { OPERATOR } from '@/server/services/audit/record';
import { setOverage, setReviewed, setStatus } from '@/server/services/organizations/organizations';
import { startTestApp, type TestApp } from './support/app';
import { sendingOrg } from './support/sending-org';
import { keyFor } from './support/keys';
import { newId } from '@/server/ids';
import { storeReserved, type EmailDraft } from '@/server/services/emails/accept/store';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

const deps = () => app.runtime.deps;
const DAY = 86_400_000;
/** An account past the pool and its age tiers: its ceiling is usage-based. */
const settled = () => new Date(app.clock.now().getTime() - 60 * DAY);

const send = (key: string, body: Record<string, unknown>) =>
  app.request('POST', '/api/emails', { key, body: { from: 'Acme <hello@acme.example.com>', subject: 'Hi', text: 'Hello', ...body } });
const batch = (key: string, items: Array<Record<string, unknown>>) =>
  app.request('POST', '/api/emails/batch', {
    key,
    body: items.map((item, i) => ({ from: 'hello@acme.example.com', subject: `Receipt ${i}`, text: `Order ${i}`, ...item })),
  });
const to = (n: number, prefix = 'user') => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.net`);
const usage = async (key: string) => (await app.request('GET', '/api/usage', { key })).body;
const storedEmails = async (organizationId: string) =>
  (await deps().db.select({ n: count() }).from(emails).where(and(eq(emails.organizationId, organizationId), eq(emails.mode, 'live'))))[0]!.n;

/** Stands for the sends of earlier days or months: the counters as the store statement leaves them. */
async function prime(organizationId: string, values: { day?: string; dayRecipients?: number; month?: string; monthRecipients?: number; listRecipients?: number }) {
  const now = app.clock.now().toISOString();
  const row = { organizationId, day: now.slice(0, 10), month: `${now.slice(0, 7)}-01`, dayRecipients: 0, monthRecipients: 0, listRecipients: 0, ...values };
  await deps().db.insert(usageCounters).values(row).onConflictDoUpdate({ target: usageCounters.organizationId, set: row });
}

describe('usage counters', () => {
  it('are created with the organization, and created on the first send of one that has none (made before they existed)', async () => {
    const org = await sendingOrg(app, { plan: 'free' });
    const [created] = await deps().db.select().from(usageCounters).where(eq(usageCounters.organizationId, org.organizationId));
    expect(created).toMatchObject({ dayRecipients: 0, monthRecipients: 0, listRecipients: 0 });

    await deps().db.delete(usageCounters).where(eq(usageCounters.organizationId, org.organizationId));
    expect((await send(org.apiKey, { to: ['a@example.net', 'b@example.net'] })).status).toBe(200);
    const [row] = await deps().db.select().from(usageCounters).where(eq(usageCounters.organizationId, org.organizationId));
    expect(row).toMatchObject({ dayRecipients: 2, monthRecipients: 2 });
    expect(await storedEmails(org.organizationId)).toBe(1);
  });
});

describe('daily recipient ceiling', () => {
  it('lets a Free account reach its 100th recipient and refuses the 101st before storing anything, until midnight UTC', async () => {
    app.clock.set('2026-11-21T23:00:00.000Z');
    const org = await sendingOrg(app, { plan: 'free' });
    const hundred = await batch(org.apiKey, to(100).map((address) => ({ to: address })));
    expect(hundred.status).toBe(200);
    expect(hundred.body.data.every((item: { id?: string }) => typeof item.id === 'string')).toBe(true);

    const refused = await send(org.apiKey, { to: 'one-more@example.net' });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('DAILY_LIMIT_EXCEEDED');
    expect(refused.body.error).toContain('100');
    expect(await storedEmails(org.organizationId)).toBe(100);

    app.clock.set('2026-11-21T23:59:59.999Z');
    expect((await send(org.apiKey, { to: 'still@example.net' })).body.code).toBe('DAILY_LIMIT_EXCEEDED');
    app.clock.set('2026-11-22T00:00:00.000Z');
    expect((await send(org.apiKey, { to: 'next-day@example.net' })).status).toBe(200);
    expect(await usage(org.apiKey)).toMatchObject({ today: { day: '2026-11-22', recipients: 1, ceiling: 100, tier: 'free' }, month: { emails: 101 } });
  });

  it('counts to, cc and bcc, but not suppressed recipients (nothing is sent to them)', async () => {
    const org = await sendingOrg(app, { plan: 'free' });
    await app.request('POST', '/api/suppressions', { key: org.apiKey, body: { email: 'gone@example.net' } });
    const sent = await send(org.apiKey, { to: ['a@example.net', 'gone@example.net'], cc: 'b@example.net', bcc: ['c@example.net'] });
    expect(sent.status).toBe(200);
    expect(await usage(org.apiKey)).toMatchObject({ today: { recipients: 3, remaining: 97 }, month: { emails: 3 } });
  });

  it('refuses a whole email that does not fit, and reports a batch per item: a later smaller item may still fit', async () => {
    const org = await sendingOrg(app, { plan: 'free' });
    await prime(org.organizationId, { dayRecipients: 97, monthRecipients: 97 });
    expect((await send(org.apiKey, { to: to(4) })).body.code).toBe('DAILY_LIMIT_EXCEEDED');
    const outcomes = await batch(org.apiKey, [{ to: to(2, 'a') }, { to: to(2, 'b') }, { to: 'c@example.net' }]);
    expect(outcomes.status).toBe(200);
    expect(outcomes.body.data[0].id).toBeDefined();
    expect(outcomes.body.data[1]).toMatchObject({ code: 'DAILY_LIMIT_EXCEEDED' });
    expect(outcomes.body.data[2].id).toBeDefined();
    expect(await storedEmails(org.organizationId)).toBe(2);
    expect(await usage(org.apiKey)).toMatchObject({ today: { recipients: 100, remaining: 0 } });
  });

  it('never counts or refuses test-mode email', async () => {
    const org = await sendingOrg(app, { plan: 'free' });
    await prime(org.organizationId, { dayRecipients: 100, monthRecipients: 3000 });
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    expect((await send(testKey, { to: 'a@example.net' })).status).toBe(200);
    expect((await send(org.apiKey, { to: 'a@example.net' })).body.code).toBe('MONTHLY_LIMIT_EXCEEDED');
    expect(await usage(org.apiKey)).toMatchObject({ today: { recipients: 100 }, month: { emails: 3000 } });
  });

  it('walks a paid account through the pool and the age tiers by the clock', async () => {
    const start = new Date('2026-11-21T10:00:00.000Z');
    app.clock.set(start);
    const org = await sendingOrg(app, { plan: '10k', createdAt: start });
    const at = async (offsetMs: number) => {
      app.clock.set(new Date(start.getTime() + offsetMs));
      return (await usage(org.apiKey)).today;
    };
    const poolEnd = 7 * DAY;
    expect(await at(0)).toMatchObject({ ceiling: 1_000, tier: 'pool', changesAt: new Date(start.getTime() + poolEnd).toISOString() });
    expect(await at(poolEnd - 1)).toMatchObject({ ceiling: 1_000, tier: 'pool' });
    expect(await at(poolEnd)).toMatchObject({ ceiling: 2_000, tier: 'after-pool' });
    expect(await at(poolEnd + DAY - 1)).toMatchObject({ ceiling: 2_000 });
    expect(await at(poolEnd + DAY)).toMatchObject({ ceiling: 10_000 });
    expect(await at(poolEnd + 3 * DAY - 1)).toMatchObject({ ceiling: 10_000 });
    expect(await at(poolEnd + 3 * DAY)).toMatchObject({ ceiling: 50_000 });
    expect(await at(poolEnd + 7 * DAY - 1)).toMatchObject({ ceiling: 50_000 });
    // 10k: the quota over 30 days is 334, twice the busiest day 0, the contact cap 5,000.
    expect(await at(poolEnd + 7 * DAY)).toMatchObject({ ceiling: 5_000, tier: 'usage-based', changesAt: null });
  });

  it('enforces the pool ceiling of 1,000 on sends', async () => {
    const org = await sendingOrg(app, { plan: '100k' });
    await prime(org.organizationId, { dayRecipients: 999, monthRecipients: 999 });
    expect((await send(org.apiKey, { to: 'a@example.net' })).status).toBe(200);
    expect((await send(org.apiKey, { to: 'b@example.net' })).body).toMatchObject({ code: 'DAILY_LIMIT_EXCEEDED' });
  });

  it('leaves the pool by volume at the hourly evaluation after about 500 delivered messages with low rates', async () => {
    const org = await sendingOrg(app, { plan: '10k' });
    for (let round = 0; round < 5; round += 1) {
      const sent = await batch(org.apiKey, to(100, `r${round}-`).map((address) => ({ to: address })));
      expect(sent.body.data.every((item: { id?: string }) => item.id)).toBe(true);
    }
    await deps().db.update(emails).set({ status: 'delivered' }).where(eq(emails.organizationId, org.organizationId));
    // Evaluated at most hourly: the first read of the hour already ran before the deliveries.
    expect((await usage(org.apiKey)).today).toMatchObject({ tier: 'pool', ceiling: 1_000 });
    app.clock.advance(60 * 60_000);
    const exited = app.clock.now();
    expect((await usage(org.apiKey)).today).toMatchObject({ tier: 'after-pool', ceiling: 2_000, changesAt: new Date(exited.getTime() + DAY).toISOString() });
    expect((await send(org.apiKey, { to: 'more@example.net' })).status).toBe(200);
  });

  it('stays in the pool when the bounce rate of those messages is high', async () => {
    const org = await sendingOrg(app, { plan: '10k' });
    for (let round = 0; round < 6; round += 1) await batch(org.apiKey, to(100, `r${round}-`).map((address) => ({ to: address })));
    await deps().db.update(emails).set({ status: 'delivered' }).where(eq(emails.organizationId, org.organizationId));
    const list = await deps().db.select({ id: emails.id }).from(emails).where(eq(emails.organizationId, org.organizationId)).limit(30);
    for (const { id } of list) await deps().db.update(emails).set({ status: 'bounced' }).where(eq(emails.id, id));
    app.clock.advance(60 * 60_000);
    // 30 of 600 bounced: 5 %, above 4 %: the pool stays, and the ceiling is halved.
    expect((await usage(org.apiKey)).today).toMatchObject({ tier: 'pool', ceiling: 500, halved: true });
  });

  it('halves the ceiling while the 7-day bounce rate is elevated, and restores it once the rate recovers', async () => {
    const org = await sendingOrg(app, { plan: '10k', createdAt: settled() });
    for (let round = 0; round < 2; round += 1) await batch(org.apiKey, to(100, `r${round}-`).map((address) => ({ to: address })));
    await deps().db.update(emails).set({ status: 'delivered' }).where(eq(emails.organizationId, org.organizationId));
    const first = await deps().db.select({ id: emails.id }).from(emails).where(eq(emails.organizationId, org.organizationId)).limit(9);
    for (const { id } of first) await deps().db.update(emails).set({ status: 'bounced' }).where(eq(emails.id, id));
    app.clock.advance(60 * 60_000);
    // 9 of 200 sent bounced (4.5 %): 5,000 halved.
    const halved = (await usage(org.apiKey)).today;
    expect(halved).toMatchObject({ ceiling: 2_500, halved: true });
    expect(halved.reason).toContain('bounce rate is 4.5 %');
    await prime(org.organizationId, { dayRecipients: 2_500, monthRecipients: 2_700 });
    expect((await send(org.apiKey, { to: 'x@example.net' })).body.code).toBe('DAILY_LIMIT_EXCEEDED');
    // A week on, those messages have left the window.
    app.clock.advance(7 * DAY + 60 * 60_000);
    expect((await usage(org.apiKey)).today).toMatchObject({ halved: false, ceiling: 5_000 });
  });

  it('does not judge rates over fewer than 200 sent messages', async () => {
    const org = await sendingOrg(app, { plan: '10k', createdAt: settled() });
    await batch(org.apiKey, to(100).map((address) => ({ to: address })));
    await deps().db.update(emails).set({ status: 'bounced' }).where(eq(emails.organizationId, org.organizationId));
    app.clock.advance(60 * 60_000);
    expect((await usage(org.apiKey)).today).toMatchObject({ halved: false, ceiling: 5_000 });
  });

  it('archives the day a rollover closes: the busiest day and the chart read it', async () => {
    app.clock.set('2026-11-20T10:00:00.000Z');
    const org = await sendingOrg(app, { plan: '10k', createdAt: new Date('2026-09-01T00:00:00.000Z') });
    await prime(org.organizationId, { day: '2026-11-20', dayRecipients: 4_000, monthRecipients: 4_000 });
    app.clock.set('2026-11-21T09:00:00.000Z');
    expect((await send(org.apiKey, { to: 'a@example.net' })).status).toBe(200);
    app.clock.set('2026-11-23T12:00:00.000Z');
    expect((await send(org.apiKey, { to: ['b@example.net', 'c@example.net'] })).status).toBe(200);
    app.clock.advance(2 * 60 * 60_000);
    const body = await usage(org.apiKey);
    expect(body.today).toMatchObject({ recipients: 2, ceiling: 8_000 });
    expect(body.days.map((day: { day: string; recipients: number }) => [day.day, day.recipients])).toEqual([
      ['2026-11-20', 4_000],
      ['2026-11-21', 1],
      ['2026-11-23', 2],
    ]);
    expect(body.month.emails).toBe(4_003);
  });

  it('follows the busiest recent day past 7 days after the pool', async () => {
    const org = await sendingOrg(app, { plan: '10k', createdAt: settled() });
    await prime(org.organizationId, { dayRecipients: 0 });
    const { usageDays } = await import('@/db/schema');
    await deps().db.insert(usageDays).values({ organizationId: org.organizationId, day: new Date(app.clock.now().getTime() - 3 * DAY).toISOString().slice(0, 10), recipients: 4_000 });
    app.clock.advance(60 * 60_000);
    const today = (await usage(org.apiKey)).today;
    expect(today).toMatchObject({ ceiling: 8_000, tier: 'usage-based' });
    expect(today.reason).toContain('busiest day');
  });
});

describe('monthly quota', () => {
  it('refuses the email past the quota until the first of the next month, UTC', async () => {
    app.clock.set('2026-11-30T12:00:00.000Z');
    const org = await sendingOrg(app, { plan: 'free' });
    await prime(org.organizationId, { day: '2026-11-29', dayRecipients: 100, monthRecipients: 2_999 });
    expect((await send(org.apiKey, { to: 'last@example.net' })).status).toBe(200);
    const refused = await send(org.apiKey, { to: 'over@example.net' });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('MONTHLY_LIMIT_EXCEEDED');
    expect(refused.body.error).toContain('2026-12-01T00:00:00.000Z');
    app.clock.set('2026-11-30T23:59:59.999Z');
    expect((await send(org.apiKey, { to: 'over@example.net' })).body.code).toBe('MONTHLY_LIMIT_EXCEEDED');
    app.clock.set('2026-12-01T00:00:00.000Z');
    expect((await send(org.apiKey, { to: 'december@example.net' })).status).toBe(200);
    expect(await usage(org.apiKey)).toMatchObject({ month: { emails: 1, quota: 3_000 }, period: { start: '2026-12-01T00:00:00.000Z' } });
    expect(await storedEmails(org.organizationId)).toBe(2);
  });

  it('checks the month before the day', async () => {
    const org = await sendingOrg(app, { plan: 'free' });
    await prime(org.organizationId, { dayRecipients: 100, monthRecipients: 3_000 });
    expect((await send(org.apiKey, { to: 'a@example.net' })).body.code).toBe('MONTHLY_LIMIT_EXCEEDED');
  });
});

describe('metered overage', () => {
  const ownerNotices = async (organizationId: string) =>
    (await deps().db.select().from(systemEmails).where(and(eq(systemEmails.organizationId, organizationId), eq(systemEmails.kind, 'overage-entered')))).length;

  it('lets transactional mail past the quota, meters it, tells the owner once, and stops where the next volume is cheaper', async () => {
    const org = await sendingOrg(app, { plan: '10k', createdAt: settled() });
    await setOverage(deps(), org.organizationId, true, OPERATOR);
    await prime(org.organizationId, { day: '2026-11-20', dayRecipients: 0, monthRecipients: 9_999 });
    expect((await send(org.apiKey, { to: 'quota@example.net' })).status).toBe(200);
    expect(await ownerNotices(org.organizationId)).toBe(0);
    expect((await send(org.apiKey, { to: ['o1@example.net', 'o2@example.net'] })).status).toBe(200);
    expect(await ownerNotices(org.organizationId)).toBe(1);
    expect((await send(org.apiKey, { to: 'o3@example.net' })).status).toBe(200);
    expect(await ownerNotices(org.organizationId)).toBe(1);
    // 3 recipients past the quota at EUR 0.45 per 1,000: 0.135 cents, shown rounded.
    expect(await usage(org.apiKey)).toMatchObject({ overage: { enabled: true, emails: 3, costEurCents: 0, stopsAt: 19_999, budgetEurCents: 450 }, month: { emails: 10_003 } });

    // EUR 9 to EUR 13.50: 450 cents of overage is 10,000 emails; the 10,000th would make it equal.
    await prime(org.organizationId, { day: '2026-11-20', monthRecipients: 19_998 });
    expect((await send(org.apiKey, { to: 'edge@example.net' })).status).toBe(200);
    const stopped = await send(org.apiKey, { to: 'past@example.net' });
    expect(stopped.status).toBe(429);
    expect(stopped.body.code).toBe('MONTHLY_LIMIT_EXCEEDED');
    expect(stopped.body.error).toContain('metered-overage');
  });

  it('stops at the quota again when turned off; what was metered stays billed', async () => {
    const org = await sendingOrg(app, { plan: '10k', createdAt: settled() });
    await setOverage(deps(), org.organizationId, true, OPERATOR);
    await prime(org.organizationId, { day: '2026-11-20', monthRecipients: 10_000 });
    await batch(org.apiKey, to(50).map((address) => ({ to: address })));
    await setOverage(deps(), org.organizationId, false, OPERATOR);
    expect((await send(org.apiKey, { to: 'off@example.net' })).body.code).toBe('MONTHLY_LIMIT_EXCEEDED');
    expect(await usage(org.apiKey)).toMatchObject({ overage: { enabled: false, emails: 50, stopsAt: 10_000 }, month: { remaining: 0 } });
  });

  it('is not available on Free', async () => {
    const org = await sendingOrg(app, { plan: 'free' });
    await setOverage(deps(), org.organizationId, true, OPERATOR);
    await prime(org.organizationId, { day: '2026-11-20', monthRecipients: 3_000 });
    expect((await send(org.apiKey, { to: 'a@example.net' })).body.code).toBe('MONTHLY_LIMIT_EXCEEDED');
    expect(await usage(org.apiKey)).toMatchObject({ overage: { available: false, stopsAt: 3_000 } });
  });
});

describe('list-send review', () => {
  const newsletter = (n: number, prefix: string) => to(n, prefix).map((address) => ({ to: address, subject: 'November news', text: 'All the news' }));

  it('holds list-shaped batch items past 500 recipients until the account is reviewed; single sends go on', async () => {
    const org = await sendingOrg(app, { plan: '10k', createdAt: settled() });
    for (let round = 0; round < 4; round += 1) {
      expect((await batch(org.apiKey, newsletter(100, `r${round}-`))).body.data.every((item: { id?: string }) => item.id)).toBe(true);
    }
    const partly = (await batch(org.apiKey, newsletter(100, 'r4-').concat(newsletter(50, 'r5-')).slice(0, 100).map((item, i) => (i < 99 ? item : { ...item, to: ['x1@example.net', 'x2@example.net'] })))).body.data;
    expect(partly.filter((item: { id?: string }) => item.id)).toHaveLength(99);
    expect(partly[99]).toMatchObject({ code: 'LIST_SEND_HELD' });
    expect(await usage(org.apiKey)).toMatchObject({ review: { reviewed: false, allowance: 500, used: 499, remaining: 1 } });
    const held = (await batch(org.apiKey, newsletter(20, 'r6-'))).body.data;
    expect(held[0].id).toBeDefined();
    expect(held.slice(1).every((item: { code?: string }) => item.code === 'LIST_SEND_HELD')).toBe(true);

    expect((await send(org.apiKey, { to: 'receipt@example.net' })).status).toBe(200);
    const distinct = await batch(org.apiKey, to(20, 'tx').map((address) => ({ to: address })));
    expect(distinct.body.data.every((item: { id?: string }) => item.id)).toBe(true);

    await setReviewed(deps(), org.organizationId, true, OPERATOR);
    expect((await batch(org.apiKey, newsletter(100, 'r7-'))).body.data.every((item: { id?: string }) => item.id)).toBe(true);
    expect(await usage(org.apiKey)).toMatchObject({ review: { reviewed: true, remaining: null } });
  });

  it('counts a batch of one template to many as list-shaped, and nine identical items as not', async () => {
    const org = await sendingOrg(app, { plan: '10k', createdAt: settled() });
    await prime(org.organizationId, { listRecipients: 500 });
    expect((await batch(org.apiKey, newsletter(9, 'nine'))).body.data.every((item: { id?: string }) => item.id)).toBe(true);
    const template = await app.request('POST', '/api/templates', { key: org.apiKey, body: { name: 'News', subject: 'Hi {{ name }}', text: 'Hello {{ name }}' } });
    const items = to(10, 'tpl').map((address, i) => ({ to: address, subject: undefined, text: undefined, template_id: template.body.id, variables: { name: `N${i}` } }));
    const outcome = await batch(org.apiKey, items);
    expect(outcome.body.data.every((item: { code?: string }) => item.code === 'LIST_SEND_HELD')).toBe(true);
  });
});

describe('account states', () => {
  it.each([
    ['restricted', 'ACCOUNT_RESTRICTED'],
    ['suspended', 'SENDING_SUSPENDED'],
    ['paused', 'SERVICE_PAUSED'],
  ])('%s refuses every send path with %s; reads keep working', async (status, code) => {
    const org = await sendingOrg(app);
    await setStatus(deps(), org.organizationId, status, OPERATOR);
    const single = await send(org.apiKey, { to: 'a@example.net' });
    expect(single.status).toBe(403);
    expect(single.body.code).toBe(code);
    expect((await batch(org.apiKey, [{ to: 'a@example.net' }])).body.data[0]).toMatchObject({ code });
    expect((await app.request('GET', '/api/emails', { key: org.apiKey })).status).toBe(200);
    expect(await usage(org.apiKey)).toMatchObject({ status, today: { recipients: 0 } });
    expect(await storedEmails(org.organizationId)).toBe(0);
  });
});

describe('counters under concurrency', () => {
  it('never lets concurrent batches from two processes past the daily ceiling by one recipient', async () => {
    const second = await startTestApp({ shareDatabaseWith: app });
    try {
      second.clock.set(app.clock.now());
      const org = await sendingOrg(app, { plan: 'free' });
      second.dns.mx('example.net', 'mx.example.net');
      const requests = Array.from({ length: 8 }, (_, round) =>
        (round % 2 === 0 ? app : second).request('POST', '/api/emails/batch', {
          key: org.apiKey,
          body: to(15, `c${round}-`).map((address, i) => ({ from: 'hello@acme.example.com', to: address, subject: `Code ${round}-${i}`, text: 'x' })),
        }),
      );
      const outcomes = (await Promise.all(requests)).flatMap((response) => response.body.data as Array<{ id?: string; code?: string }>);
      expect(outcomes.filter((item) => item.id)).toHaveLength(100);
      expect(outcomes.filter((item) => item.code === 'DAILY_LIMIT_EXCEEDED')).toHaveLength(20);
      expect(await storedEmails(org.organizationId)).toBe(100);
      const [counters] = await deps().db.select().from(usageCounters).where(eq(usageCounters.organizationId, org.organizationId));
      expect(counters).toMatchObject({ dayRecipients: 100, monthRecipients: 100 });
    } finally {
      await second.close();
    }
  });

  it('never lets concurrent single sends past the monthly quota', async () => {
    const org = await sendingOrg(app, { plan: '10k', createdAt: settled() });
    await prime(org.organizationId, { day: '2026-11-20', monthRecipients: 9_990 });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => send(org.apiKey, { to: `s${i}@example.net` })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.body?.code === 'MONTHLY_LIMIT_EXCEEDED')).toHaveLength(20);
    expect(await storedEmails(org.organizationId)).toBe(10);
  });

  it('stores concurrent single sends of two processes together, yet allots and refuses each on its own', async () => {
    const second = await startTestApp({ shareDatabaseWith: app });
    try {
      second.clock.set(app.clock.now());
      const org = await sendingOrg(app, { plan: 'free' });
      second.dns.mx('example.net', 'mx.example.net');
      await prime(org.organizationId, { dayRecipients: 90, monthRecipients: 90 });
      // Ten recipients left today, raced for by two- and one-recipient sends: whatever the order, they fill it exactly.
      const sizes = [2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1];
      const results = await Promise.all(
        sizes.map((n, i) =>
          (i % 2 === 0 ? app : second)
            .request('POST', '/api/emails', { key: org.apiKey, body: { from: 'hello@acme.example.com', subject: 'Hi', text: 'Hello', to: to(n, `r${i}-`) } })
            .then((response) => ({ n, response })),
        ),
      );
      const accepted = results.filter(({ response }) => response.status === 200);
      const refused = results.filter(({ response }) => response.status !== 200);
      expect(refused.every(({ response }) => response.status === 429 && response.body.code === 'DAILY_LIMIT_EXCEEDED')).toBe(true);
      const acceptedRecipients = accepted.reduce((sum, { n }) => sum + n, 0);
      expect(acceptedRecipients).toBe(10);
      expect(await storedEmails(org.organizationId)).toBe(accepted.length);
      for (const { response } of accepted) {
        expect((await app.request('GET', `/api/emails/${response.body.id}`, { key: org.apiKey })).status).toBe(200);
      }
      const [counters] = await deps().db.select().from(usageCounters).where(eq(usageCounters.organizationId, org.organizationId));
      expect(counters).toMatchObject({ dayRecipients: 100, monthRecipients: 100 });
    } finally {
      await second.close();
    }
  });

  it('stores several organizations in one statement, each against its own reservation: one out of room stores nothing, the others store theirs', async () => {
    const orgs = [];
    for (const name of ['acme', 'bolt']) orgs.push(await sendingOrg(app, { plan: 'free' }, `${name}.example.com`));
    const [roomy, full] = orgs as [(typeof orgs)[0], (typeof orgs)[0]];
    await prime(roomy.organizationId, { dayRecipients: 98 });
    await prime(full.organizationId, { dayRecipients: 99 });
    const now = app.clock.now();
    const draftOf = (organizationId: string): EmailDraft => {
      const id = newId();
      return {
        row: { id, organizationId, mode: 'live', from: 'hello@acme.example.com', fromAddress: 'hello@acme.example.com', to: ['a@example.net', 'b@example.net'], cc: [], bcc: [], replyTo: [], headers: {}, tags: [], tagKeys: [], trackOpens: false, trackClicks: false,
          recipientAddresses: ['a@example.net', 'b@example.net'], subject: 'Hi', text: 'x', status: 'queued', nextAttemptAt: now, createdAt: now, updatedAt: now },
        recipients: [{ address: 'a@example.net', status: 'pending' }, { address: 'b@example.net', status: 'pending' }],
        events: [{ type: 'email.queued', data: {} }],
      };
    };
    const today = now.toISOString().slice(0, 10);
    const reservation = (organizationId: string) => ({ organizationId, day: today, month: `${today.slice(0, 7)}-01`, recipients: 2, listRecipients: 0, dayLimit: 100, monthLimit: 3_000, listLimit: 1_000_000, quota: 3_000, overageRateCents: 0 });
    const [roomyDraft, fullDraft] = [draftOf(roomy.organizationId), draftOf(full.organizationId)];
    const [stored, refused] = await storeReserved(deps().db, [
      { drafts: [roomyDraft], reservation: reservation(roomy.organizationId) },
      { drafts: [fullDraft], reservation: reservation(full.organizationId) },
    ]);
    expect(stored).toMatchObject({ reserved: true, stored: new Set([roomyDraft.row.id]) });
    expect(refused).toMatchObject({ reserved: false, stored: new Set() });
    expect(await storedEmails(roomy.organizationId)).toBe(1);
    expect(await storedEmails(full.organizationId)).toBe(0);
    const counters = async (organizationId: string) => (await deps().db.select().from(usageCounters).where(eq(usageCounters.organizationId, organizationId)))[0];
    expect(await counters(roomy.organizationId)).toMatchObject({ dayRecipients: 100 });
    expect(await counters(full.organizationId)).toMatchObject({ dayRecipients: 99 });
    await expect(storeReserved(deps().db, [{ drafts: [draftOf(roomy.organizationId)], reservation: reservation(roomy.organizationId) }, { drafts: [], reservation: reservation(roomy.organizationId) }])).rejects.toThrow(/one reservation per organization/);
  });

  it('stores concurrent single sends of several organizations together, each within its own room, from two processes', async () => {
    const second = await startTestApp({ shareDatabaseWith: app });
    try {
      second.clock.set(app.clock.now());
      second.dns.mx('example.net', 'mx.example.net');
      // Three organizations with 4, 0 and 7 recipients left today.
      const orgs: Array<Awaited<ReturnType<typeof sendingOrg>> & { from: string }> = [];
      for (const name of ['acme', 'bolt', 'cask']) orgs.push({ ...(await sendingOrg(app, { plan: 'free' }, `${name}.example.com`)), from: `hello@${name}.example.com` });
      const room = [4, 0, 7];
      for (const [i, org] of orgs.entries()) await prime(org.organizationId, { dayRecipients: 100 - room[i]! });
      const sends = Array.from({ length: 36 }, (_, i) => ({ org: orgs[i % 3]!, n: 1 + (i % 2) }));
      const results = await Promise.all(
        sends.map(({ org, n }, i) =>
          (i % 4 < 2 ? app : second)
            .request('POST', '/api/emails', { key: org.apiKey, body: { from: org.from, subject: 'Hi', text: 'Hello', to: to(n, `s${i}-`) } })
            .then((response) => ({ org, n, response })),
        ),
      );
      for (const [i, org] of orgs.entries()) {
        const mine = results.filter((result) => result.org === org);
        const accepted = mine.filter(({ response }) => response.status === 200);
        expect(mine.filter(({ response }) => response.status !== 200).every(({ response }) => response.status === 429 && response.body.code === 'DAILY_LIMIT_EXCEEDED')).toBe(true);
        // Whatever the order, each organization's room is filled exactly (1s and 2s can always fill it), and no more.
        expect(accepted.reduce((sum, { n }) => sum + n, 0)).toBe(room[i]);
        expect(await storedEmails(org.organizationId)).toBe(accepted.length);
        const [counters] = await deps().db.select().from(usageCounters).where(eq(usageCounters.organizationId, org.organizationId));
        expect(counters).toMatchObject({ dayRecipients: 100 });
      }
    } finally {
      await second.close();
    }
  });

  it('keeps an idempotent repeat from counting twice', async () => {
    const org = await sendingOrg(app, { plan: 'free' });
    const body = { from: 'hello@acme.example.com', to: 'a@example.net', subject: 'Hi', text: 'x' };
    const both = await Promise.all([0, 1, 2].map(() => app.request('POST', '/api/emails', { key: org.apiKey, body, headers: { 'idempotency-key': 'k-1' } })));
    expect(new Set(both.map((r) => r.body.id)).size).toBe(1);
    expect(await usage(org.apiKey)).toMatchObject({ today: { recipients: 1 } });
  });
});

describe('GET /usage', () => {
  it('shows the plan, caps with counts, and the month by day', async () => {
    const org = await sendingOrg(app, { plan: 'free' });
    await send(org.apiKey, { to: ['a@example.net', 'b@example.net'] });
    const body = await usage(org.apiKey);
    expect(body).toMatchObject({
      status: 'active',
      plan: { id: 'free', monthlyEmails: 3_000, priceEurCents: 0, overagePer1000EurCents: null },
      pendingPlanChange: null,
      caps: { domains: { used: 1, limit: 1 }, webhookEndpoints: { used: 0, limit: 1 }, contacts: { used: 0, limit: 1_000 }, apiKeys: { used: 1, limit: 1 } },
      days: [{ day: '2026-11-21', recipients: 2, sent: 0 }],
    });
    await deps().db.update(organizations).set({ plan: '2m' }).where(eq(organizations.id, org.organizationId));
    expect((await usage(org.apiKey)).caps.domains).toEqual({ used: 1, limit: null });
  });
});
