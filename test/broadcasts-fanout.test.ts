import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { InngestTestEngine } from '@inngest/test';
import { audienceMemberships, broadcasts, contacts, emails, events, organizations, systemEmails, usageCounters, workers } from '@/db/schema';
import { functionsFor } from '@/inngest/functions';
import { runAdminCommand } from '@/server/admin/commands';
import { fanOutChunk } from '@/server/services/broadcasts/chunk';
import { sweepBroadcasts } from '@/server/services/broadcasts/fan-out';
import type { Deps } from '@/server/deps';
import { newId } from '@/server/ids';
import { DAY_MS } from '@/server/services/shared/time';
import { startTestApp, type TestApp } from './support/app';
import { reviewedSendingOrg } from './support/sending-org';

let app: TestApp;
let second: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { APP_URL: 'https://mail.eumail.test' } });
  // A second process on the same database, with its own worker: the other holder of claims.
  second = await startTestApp({ shareDatabaseWith: app, env: { APP_URL: 'https://mail.eumail.test' } });
});
afterAll(async () => {
  await second.close();
  await app.close();
});

let org: { organizationId: string; apiKey: string };
beforeEach(async () => {
  await app.reset();
  second.clock.set(app.clock.now());
  // Settled and reviewed: the pool and the review hold are tested on their own below.
  org = await reviewedSendingOrg(app);
});

const HTML = '<p>Hello {{ name | default: "there" }} ({{ email }})</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>';

/** An audience of `count` contacts ada0@example.net, ada1@…, added through the batch API in order. */
async function audienceOf(count: number, name = 'Newsletter'): Promise<string> {
  const id = (await app.request('POST', '/api/audiences', { key: org.apiKey, body: { name } })).body.id as string;
  for (let start = 0; start < count; start += 1000) {
    const contacts = Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({ email: `ada${start + i}@example.net`, name: `Ada ${start + i}` }));
    const response = await app.request('POST', `/api/audiences/${id}/contacts/batch`, { key: org.apiKey, body: { contacts } });
    expect(response.status, response.text).toBeLessThan(300);
  }
  return id;
}

async function broadcastTo(audienceId: string, body: Record<string, unknown> = {}): Promise<string> {
  const response = await app.request('POST', '/api/broadcasts', {
    key: org.apiKey,
    body: { audience_id: audienceId, from: 'Acme News <news@acme.example.com>', subject: 'News for {{ name }}', html: HTML, text: 'Hi {{ name }}: {{ unsubscribe_url }}', ...body },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.id;
}

const send = async (id: string) => {
  const response = await app.request('POST', `/api/broadcasts/${id}/send`, { key: org.apiKey });
  expect(response.status, response.text).toBe(200);
  return response.body;
};
const read = async (id: string) => (await app.request('GET', `/api/broadcasts/${id}`, { key: org.apiKey })).body;

/** Sweeps until no broadcast has chunks left for now, as the runner's loop does. */
async function drain(deps: Deps = app.runtime.deps): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    const report = await sweepBroadcasts(deps);
    if (!report.outcomes.more) return;
  }
  throw new Error('the fan-out did not finish');
}

const emailsOf = (broadcastId: string) =>
  app.runtime.deps.db.select({ id: emails.id, to: emails.to, contactId: emails.contactId, status: emails.status }).from(emails).where(eq(emails.broadcastId, broadcastId));

async function expectEachOnce(broadcastId: string, expected: number) {
  const rows = await emailsOf(broadcastId);
  expect(rows).toHaveLength(expected);
  expect(new Set(rows.map((row) => row.contactId)).size).toBe(expected);
  expect(new Set(rows.map((row) => row.to[0])).size).toBe(expected);
  return rows;
}

/** Claims the broadcast for `deps`'s worker as a sweep would, without running it. */
const claimFor = (deps: Deps, id: string) =>
  deps.db.update(broadcasts).set({ claimedBy: deps.claims.id, claimedUntil: sql`now() + interval '30 seconds'` }).where(eq(broadcasts.id, id));
const release = (deps: Deps, id: string) => deps.db.update(broadcasts).set({ claimedBy: null, claimedUntil: null }).where(eq(broadcasts.id, id));

describe('fan-out', () => {
  it('sends every subscribed, unsuppressed contact at the start exactly once, and ends sent with its counts', async () => {
    const audienceId = await audienceOf(1203);
    const contacts = (await app.request('GET', `/api/audiences/${audienceId}/contacts?limit=1000`, { key: org.apiKey })).body.data as Array<{ id: string; email: string }>;
    for (const contact of contacts.slice(0, 3)) await app.request('PATCH', `/api/audiences/${audienceId}/contacts/${contact.id}`, { key: org.apiKey, body: { subscribed: false } });
    await app.request('POST', '/api/suppressions/batch', { key: org.apiKey, body: { emails: [contacts[10]!.email, contacts[11]!.email] } });
    const id = await broadcastTo(audienceId);
    expect((await send(id)).counts.recipients).toBe(1200);
    // After the start: one more contact (not included), one unsubscribed (skipped).
    app.clock.advance(1000);
    await app.request('POST', `/api/audiences/${audienceId}/contacts`, { key: org.apiKey, body: { email: 'late@example.net' } });
    await app.request('PATCH', `/api/audiences/${audienceId}/contacts/${contacts[20]!.id}`, { key: org.apiKey, body: { subscribed: false } });
    await drain();
    const rows = await expectEachOnce(id, 1197);
    expect(rows.some((row) => row.to[0] === 'late@example.net')).toBe(false);
    expect(rows.every((row) => row.status === 'queued')).toBe(true);
    const done = await read(id);
    expect(done).toMatchObject({ status: 'sent', counts: { recipients: 1200, queued: 1197, suppressed: 2, skipped: 1 } });
    // In the order they were logged (ids are time-ordered): a select without an order has none.
    const types = (await app.runtime.deps.db.select({ type: events.type }).from(events).where(eq(events.organizationId, org.organizationId)).orderBy(events.id)).map((e) => e.type);
    expect(types.filter((t) => t.startsWith('broadcast.'))).toEqual(['broadcast.sending', 'broadcast.sent']);
    // The org's counters moved by what was handed to delivery.
    const usage = await app.request('GET', '/api/usage', { key: org.apiKey });
    expect(usage.body.today.recipients).toBe(1197);
  });

  it('reaches the members subscribed in its audience, not a contact unsubscribed from everything nor one who joined after the start', async () => {
    const other = await audienceOf(0, 'Other');
    // A contact older than the audience's (a lower id), who joins it only after the start: not included.
    await app.request('POST', `/api/audiences/${other}/contacts`, { key: org.apiKey, body: { email: 'early@example.net' } });
    const audienceId = await audienceOf(5);
    // ada0 is in both audiences: opted out of the other one only, she still gets this one.
    await app.request('POST', `/api/audiences/${other}/contacts`, { key: org.apiKey, body: { email: 'ada0@example.net', subscribed: false } });
    // ada1 left everything (the contact's own `unsubscribed`).
    await app.runtime.deps.db.update(contacts).set({ unsubscribed: true }).where(eq(contacts.email, 'ada1@example.net'));
    const id = await broadcastTo(audienceId);
    expect((await send(id)).counts.recipients).toBe(4);
    app.clock.advance(1000);
    await app.request('POST', `/api/audiences/${audienceId}/contacts`, { key: org.apiKey, body: { email: 'early@example.net' } });
    await drain();
    const rows = await expectEachOnce(id, 4);
    expect(rows.map((row) => row.to[0]).sort()).toEqual(['ada0@example.net', 'ada2@example.net', 'ada3@example.net', 'ada4@example.net']);
  });

  it('personalises each copy, escapes the HTML, and carries signed one-click unsubscribe headers', async () => {
    const audienceId = (await app.request('POST', '/api/audiences', { key: org.apiKey, body: { name: 'Few' } })).body.id;
    await app.request('POST', `/api/audiences/${audienceId}/contacts`, { key: org.apiKey, body: { email: 'Mallory@Example.NET', name: '<b>Mal & Co</b>' } });
    await app.request('POST', `/api/audiences/${audienceId}/contacts`, { key: org.apiKey, body: { email: 'nameless@example.net' } });
    const id = await broadcastTo(audienceId);
    await send(id);
    await drain();
    const rows = await app.runtime.deps.db.select().from(emails).where(eq(emails.broadcastId, id));
    const mallory = rows.find((row) => row.to[0] === 'mallory@example.net')!;
    expect(mallory.subject).toBe('News for <b>Mal & Co</b>');
    expect(mallory.html).toContain('Hello &lt;b&gt;Mal &amp; Co&lt;/b&gt; (mallory@example.net)');
    expect(mallory.text).toContain('Hi <b>Mal & Co</b>: https://mail.eumail.test/unsubscribe/');
    const url = /href="(https:\/\/mail\.eumail\.test\/unsubscribe\/[A-Za-z0-9_-]+)"/.exec(mallory.html!)![1]!;
    expect(mallory.headers).toEqual({
      'List-Unsubscribe': expect.stringMatching(new RegExp(`^<${url}>, <mailto:u-[A-Za-z0-9_-]{59}@mail\\.eumail\\.test>$`)),
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      Precedence: 'bulk',
    });
    expect(rows.find((row) => row.to[0] === 'nameless@example.net')!.html).toContain('Hello there (nameless@example.net)');
    expect(new Set(rows.map((row) => row.headers['List-Unsubscribe'])).size).toBe(2);
  });

  it("personalises with the contact's names and property values (or their fallbacks), in Liquid and in Resend's merge tags", async () => {
    await app.request('POST', '/api/contact-properties', { key: org.apiKey, body: { key: 'plan', type: 'string', fallback_value: 'free' } });
    const audienceId = (await app.request('POST', '/api/audiences', { key: org.apiKey, body: { name: 'Few' } })).body.id;
    await app.request('POST', '/api/contacts', { key: org.apiKey, body: { email: 'ada@example.net', first_name: 'Ada', last_name: 'Lovelace', properties: { plan: 'pro' }, segments: [{ id: audienceId }] } });
    await app.request('POST', '/api/contacts', { key: org.apiKey, body: { email: 'bob@example.net', segments: [{ id: audienceId }] } });
    const id = await broadcastTo(audienceId, {
      subject: 'Hi {{{FIRST_NAME|there}}}',
      html: '<p>{{ first_name }} {{{LAST_NAME|}}} on {{ contact.plan }} / {{{contact.plan}}} ({{{EMAIL}}}) <a href="{{{RESEND_UNSUBSCRIBE_URL}}}">Unsubscribe</a></p>',
      text: undefined,
    });
    await send(id);
    await drain();
    const rows = await app.runtime.deps.db.select().from(emails).where(eq(emails.broadcastId, id));
    const ada = rows.find((row) => row.to[0] === 'ada@example.net')!;
    const bob = rows.find((row) => row.to[0] === 'bob@example.net')!;
    expect([ada.subject, bob.subject]).toEqual(['Hi Ada', 'Hi there']);
    expect(ada.html).toContain('<p>Ada Lovelace on pro / pro (ada@example.net) <a href="https://mail.eumail.test/unsubscribe/');
    expect(bob.html).toContain('<p>  on free / free (bob@example.net) <a href="https://mail.eumail.test/unsubscribe/');
  });
});

describe('exactly once', () => {
  it('sends nothing to whoever unsubscribes or is deleted while their chunk is read and rendered ahead', async () => {
    const audienceId = await audienceOf(1100);
    const id = await broadcastTo(audienceId);
    await send(id);
    await claimFor(app.runtime.deps, id);
    // The first chunk is stored; the second is read and rendered meanwhile (chunk-prefetch.ts).
    expect((await fanOutChunk(app.runtime.deps, id)).outcome).toBe('more');
    const ordered = await app.runtime.deps.db
      .select({ id: contacts.id, email: contacts.email })
      .from(audienceMemberships)
      .innerJoin(contacts, eq(contacts.id, audienceMemberships.contactId))
      .where(eq(audienceMemberships.audienceId, audienceId))
      .orderBy(asc(contacts.id));
    const [leaving, deleted] = [ordered[600]!, ordered[700]!];
    app.clock.advance(1000);
    expect((await app.request('PATCH', `/api/audiences/${audienceId}/contacts/${leaving.id}`, { key: org.apiKey, body: { subscribed: false } })).status).toBe(200);
    expect((await app.request('DELETE', `/api/audiences/${audienceId}/contacts/${deleted.id}`, { key: org.apiKey })).status).toBe(200);
    await release(app.runtime.deps, id);
    await drain();
    const rows = await expectEachOnce(id, 1098);
    expect(rows.some((row) => row.to[0] === leaving.email || row.to[0] === deleted.email)).toBe(false);
    expect(await read(id)).toMatchObject({ status: 'sent', counts: { recipients: 1100, queued: 1098, skipped: 1 } });
  });

  it('under two workers sweeping together', async () => {
    const id = await broadcastTo(await audienceOf(2100));
    await send(id);
    await Promise.all([drain(app.runtime.deps), drain(second.runtime.deps), drain(app.runtime.deps)]);
    await drain();
    await expectEachOnce(id, 2100);
    expect(await read(id)).toMatchObject({ status: 'sent', counts: { queued: 2100 } });
  });

  it('after a worker dies between chunks: another takes over at the next chunk, with no gap and no duplicate', async () => {
    const id = await broadcastTo(await audienceOf(1300));
    await send(id);
    const dying = second.runtime.deps;
    await claimFor(dying, id);
    expect((await fanOutChunk(dying, id)).outcome).toBe('more');
    expect(await emailsOf(id)).toHaveLength(500);
    // It dies holding the claim: a holder with no worker row, as the reaper leaves one whose connection dropped.
    const dead = newId();
    await app.runtime.deps.db.update(broadcasts).set({ claimedBy: dead }).where(eq(broadcasts.id, id));
    expect(await app.runtime.deps.db.select().from(workers).where(eq(workers.id, dead))).toHaveLength(0);
    expect((await fanOutChunk(app.runtime.deps, id)).outcome).toBe('stopped');
    await drain();
    await expectEachOnce(id, 1300);
    expect((await read(id)).status).toBe('sent');
  });

  it('when a cancel races a chunk: nothing is handed over after the cancel, and queued copies are withdrawn', async () => {
    const id = await broadcastTo(await audienceOf(1600));
    await send(id);
    await claimFor(app.runtime.deps, id);
    await fanOutChunk(app.runtime.deps, id);
    const [chunk, cancel] = await Promise.all([fanOutChunk(app.runtime.deps, id), app.request('POST', `/api/broadcasts/${id}/cancel`, { key: org.apiKey })]);
    expect(cancel.status, cancel.text).toBe(200);
    expect(['more', 'stopped']).toContain(chunk.outcome);
    const stored = (await emailsOf(id)).length;
    expect([500, 1000]).toContain(stored);
    await release(app.runtime.deps, id);
    await drain();
    expect((await fanOutChunk(app.runtime.deps, id)).outcome).toBe('stopped');
    const rows = await expectEachOnce(id, stored);
    expect(rows.every((row) => row.status === 'canceled')).toBe(true);
    expect(await read(id)).toMatchObject({ status: 'cancelled', counts: { queued: stored, canceled: stored } });
  });
});

describe('holds', () => {
  it('holds an unreviewed account after exactly 500 recipients, emails the owner, and resumes exactly there once approved', async () => {
    await runAdminCommand(app.runtime.deps, 'org:review', { org: org.organizationId, revoke: true });
    const id = await broadcastTo(await audienceOf(730));
    await send(id);
    await drain();
    const held = await expectEachOnce(id, 500);
    expect(held.map((row) => row.to[0]).sort()).toEqual(Array.from({ length: 500 }, (_, i) => `ada${i}@example.net`).sort());
    expect(await read(id)).toMatchObject({ status: 'held', heldReason: 'review', counts: { queued: 500 } });
    expect((await app.request('POST', `/api/broadcasts/${id}/send`, { key: org.apiKey })).body.code).toBe('LIST_SEND_HELD');
    await drain();
    await expectEachOnce(id, 500);
    await runAdminCommand(app.runtime.deps, 'org:review', { org: org.organizationId, approve: true });
    expect((await read(id)).status).toBe('sending');
    await drain();
    await expectEachOnce(id, 730);
    expect(await read(id)).toMatchObject({ status: 'sent', heldReason: null, counts: { queued: 730 } });
    const mail = await app.runtime.deps.db.select({ kind: systemEmails.kind }).from(systemEmails).where(eq(systemEmails.organizationId, org.organizationId));
    expect(mail.map((m) => m.kind).sort()).toEqual(['broadcast-held', 'broadcast-resumed']);
    // In the order they were logged (ids are time-ordered): a select without an order has none.
    const types = (await app.runtime.deps.db.select({ type: events.type }).from(events).where(eq(events.organizationId, org.organizationId)).orderBy(events.id)).map((e) => e.type);
    expect(types.filter((t) => t.startsWith('broadcast.'))).toEqual(['broadcast.sending', 'broadcast.held', 'broadcast.resumed', 'broadcast.sent']);
  });

  it('holds at the daily ceiling until midnight UTC, then goes on by itself', async () => {
    // In the new-account pool: 1,000 recipients a day.
    await app.runtime.deps.db.update(organizations).set({ paidSince: app.clock.now(), createdAt: app.clock.now() }).where(eq(organizations.id, org.organizationId));
    const id = await broadcastTo(await audienceOf(1250));
    await send(id);
    await drain();
    await expectEachOnce(id, 1000);
    const held = await read(id);
    expect(held).toMatchObject({ status: 'held', heldReason: 'daily_limit' });
    const [row] = await app.runtime.deps.db.select({ nextAttemptAt: broadcasts.nextAttemptAt }).from(broadcasts).where(eq(broadcasts.id, id));
    const midnight = new Date(Math.floor(app.clock.now().getTime() / DAY_MS) * DAY_MS + DAY_MS);
    expect(row!.nextAttemptAt).toEqual(midnight);
    app.clock.set(new Date(midnight.getTime() - 1));
    await drain();
    await expectEachOnce(id, 1000);
    app.clock.set(midnight);
    await drain();
    await expectEachOnce(id, 1250);
    expect((await read(id)).status).toBe('sent');
  });

  it('holds at the monthly quota (never metered overage) until the first of the next month', async () => {
    await runAdminCommand(app.runtime.deps, 'org:overage', { org: org.organizationId, on: true });
    // The month's sends so far, as the store statement leaves them: 300 short of the 10k quota.
    const now = app.clock.now().toISOString();
    const counters = { organizationId: org.organizationId, day: now.slice(0, 10), month: `${now.slice(0, 7)}-01`, monthRecipients: 9_700 };
    await app.runtime.deps.db.insert(usageCounters).values(counters).onConflictDoUpdate({ target: usageCounters.organizationId, set: counters });
    const id = await broadcastTo(await audienceOf(450));
    await send(id);
    await drain();
    await expectEachOnce(id, 300);
    expect(await read(id)).toMatchObject({ status: 'held', heldReason: 'monthly_limit' });
    const [row] = await app.runtime.deps.db.select({ nextAttemptAt: broadcasts.nextAttemptAt }).from(broadcasts).where(eq(broadcasts.id, id));
    const firstOfNext = new Date(Date.UTC(app.clock.now().getUTCFullYear(), app.clock.now().getUTCMonth() + 1, 1));
    expect(row!.nextAttemptAt).toEqual(firstOfNext);
    app.clock.set(firstOfNext);
    await drain();
    await expectEachOnce(id, 450);
    expect((await read(id)).status).toBe('sent');
  });

  it('fails when its sender domain is no longer verified at the next chunk', async () => {
    const id = await broadcastTo(await audienceOf(600));
    await send(id);
    await claimFor(app.runtime.deps, id);
    await fanOutChunk(app.runtime.deps, id);
    await release(app.runtime.deps, id);
    await app.runtime.deps.db.execute(sql`update domains set status = 'failed' where organization_id = ${org.organizationId}`);
    await drain();
    expect(await read(id)).toMatchObject({ status: 'failed', failedReason: expect.stringContaining('acme.example.com'), counts: { queued: 500 } });
  });
});

describe('scheduled', () => {
  it('starts at its time, through the Inngest function as through the sweep', async () => {
    const id = await broadcastTo(await audienceOf(40));
    const at = new Date(app.clock.now().getTime() + 3_600_000);
    await app.request('POST', `/api/broadcasts/${id}/send`, { key: org.apiKey, body: { scheduled_at: at.toISOString() } });
    await drain();
    expect(await emailsOf(id)).toHaveLength(0);
    app.clock.set(at);
    const [fanOut] = functionsFor('broadcast-fanout', () => app.runtime.deps);
    const { result } = await new InngestTestEngine({ function: fanOut! }).execute({ events: [{ name: 'broadcast-fanout/due', data: { id, organizationId: org.organizationId } }] });
    expect(result).toEqual({ id, outcome: 'sent' });
    await expectEachOnce(id, 40);
    const recorded = await app.runtime.deps.db.select({ id: emails.id }).from(emails).where(and(eq(emails.broadcastId, id), eq(emails.status, 'queued')));
    expect(recorded).toHaveLength(40);
  });
});
