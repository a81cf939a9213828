import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, gt, sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import { apiKeys, consentEntries, emailRecipients, emails, events, webhookDeliveries } from '@/db/schema';
import { recordDeliveryReport } from '@/server/services/bounces/reports';
import { sweepContactImports } from '@/server/services/contact-imports/run';
import { unsubscribe } from '@/server/services/unsubscribe/unsubscribe';
import { startTestApp, type TestApp } from './support/app';
import { seedAudienceMember, seedBroadcastCopy } from './support/broadcast-copy';
import { uploadImport } from './support/contact-imports';
import { dashboardCall, signUpPerson } from './support/dashboard-session';
import { keyFor } from './support/keys';
import { reviewedSendingOrg } from './support/sending-org';

// Issue 37 item 3: every path that changes a contact's consent appends a ledger entry saying
// what changed and through what (docs/consent.md). The entries are written by the database's
// triggers; each path declares its source, and none may leave it `unrecorded`.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type Org = { organizationId: string; apiKey: string; domainId: string };
let org: Org;
beforeEach(async () => {
  await app.reset();
  org = await reviewedSendingOrg(app);
});

const db = () => app.runtime.deps.db;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, key = org.apiKey) => app.request(method, `/api${path}`, { key, body });
/** The id of the organization's first key (the one `createOrg` made). */
const keyIdOf = async (organizationId = org.organizationId) => (await db().select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.organizationId, organizationId)).orderBy(apiKeys.id))[0]!.id;

/** The ledger's entries written after `since` (an entry id), as [action, via, scope] with the source's ids. */
async function entriesSince(since: number, organizationId = org.organizationId) {
  const rows = await db()
    .select()
    .from(consentEntries)
    .where(and(eq(consentEntries.organizationId, organizationId), gt(consentEntries.id, since)))
    .orderBy(consentEntries.id);
  return rows;
}
const lastEntryId = async () => (await queryRows<{ id: number }>(db(), sql`select coalesce(max(id), 0)::int as id from consent_entries`))[0]!.id;

/** Drizzle wraps the database's refusal: its own words are the cause's. */
const refusal = (write: Promise<unknown>) =>
  write.then(
    () => 'written',
    (error: Error & { cause?: Error }) => (error.cause ?? error).message,
  );
const scopeOf = (row: { audienceId: string | null; topicId: string | null }) => (row.audienceId ? 'audience' : row.topicId ? 'topic' : 'organization');
const brief = (rows: Awaited<ReturnType<typeof entriesSince>>) => rows.map((row) => [row.action, row.via, scopeOf(row), row.email]);

async function audience(name = 'Newsletter'): Promise<string> {
  const made = await call('POST', '/audiences', { name });
  expect(made.status, made.text).toBe(201);
  return made.body.id;
}

describe('the organization’s own acts, by API key', () => {
  it('an audience’s contact added, unsubscribed there and subscribed again name the key', async () => {
    const keyId = await keyIdOf();
    const audienceId = await audience();
    const since = await lastEntryId();
    const added = await call('POST', `/audiences/${audienceId}/contacts`, { email: 'ada@example.net' });
    expect(added.status, added.text).toBe(201);
    expect((await call('PATCH', `/audiences/${audienceId}/contacts/${added.body.id}`, { subscribed: false })).status).toBe(200);
    expect((await call('PATCH', `/audiences/${audienceId}/contacts/${added.body.id}`, { subscribed: true })).status).toBe(200);
    // Unchanged: no entry.
    expect((await call('PATCH', `/audiences/${audienceId}/contacts/${added.body.id}`, { subscribed: true })).status).toBe(200);
    const rows = await entriesSince(since);
    expect(brief(rows)).toEqual([
      ['subscribed', 'api', 'organization', 'ada@example.net'],
      ['subscribed', 'api', 'audience', 'ada@example.net'],
      ['unsubscribed', 'api', 'audience', 'ada@example.net'],
      ['subscribed', 'api', 'audience', 'ada@example.net'],
    ]);
    expect(rows.every((row) => row.apiKeyId === keyId && row.contactId === added.body.id && row.userId === null && row.clientAddress === null)).toBe(true);
    expect(rows.filter((row) => row.audienceId !== null).every((row) => row.audienceId === audienceId)).toBe(true);
  });

  it('a batch writes an entry per contact it adds, none for one it leaves as it was', async () => {
    const audienceId = await audience();
    await call('POST', `/audiences/${audienceId}/contacts/batch`, { contacts: [{ email: 'ada@example.net' }] });
    const since = await lastEntryId();
    const batch = await call('POST', `/audiences/${audienceId}/contacts/batch`, { contacts: [{ email: 'ada@example.net' }, { email: 'bob@example.net', subscribed: false }] });
    expect(batch.status, batch.text).toBe(200);
    expect(brief(await entriesSince(since))).toEqual([
      ['subscribed', 'api', 'organization', 'bob@example.net'],
      ['unsubscribed', 'api', 'audience', 'bob@example.net'],
    ]);
  });

  it('a contact of the organization: created, unsubscribed from everything and subscribed again (the customer’s call, not a confirmation)', async () => {
    const keyId = await keyIdOf();
    const since = await lastEntryId();
    const made = await call('POST', '/contacts', { email: 'Ada@Example.net' });
    expect(made.status, made.text).toBe(201);
    expect((await call('PATCH', '/contacts/ada%40example.net', { unsubscribed: true })).status).toBe(200);
    expect((await call('PATCH', `/contacts/${made.body.id}`, { unsubscribed: false })).status).toBe(200);
    const rows = await entriesSince(since);
    expect(brief(rows)).toEqual([
      ['subscribed', 'api', 'organization', 'ada@example.net'],
      ['unsubscribed', 'api', 'organization', 'ada@example.net'],
      ['subscribed', 'api', 'organization', 'ada@example.net'],
    ]);
    expect(new Set(rows.map((row) => row.apiKeyId))).toEqual(new Set([keyId]));
  });

  it('joining a segment and choosing topics', async () => {
    const segmentId = (await call('POST', '/segments', { name: 'Customers' })).body.id as string;
    const news = (await call('POST', '/topics', { name: 'News', default_subscription: 'opt_out' })).body.id as string;
    const contactId = (await call('POST', '/contacts', { email: 'ada@example.net' })).body.id as string;
    const since = await lastEntryId();
    expect((await call('POST', `/contacts/${contactId}/segments/${segmentId}`)).status).toBe(200);
    expect((await call('PATCH', `/contacts/${contactId}/topics`, { topics: [{ id: news, subscription: 'opt_in' }] })).status).toBe(200);
    expect((await call('PATCH', `/contacts/${contactId}/topics`, { topics: [{ id: news, subscription: 'opt_out' }] })).status).toBe(200);
    const rows = await entriesSince(since);
    expect(brief(rows)).toEqual([
      ['subscribed', 'api', 'audience', 'ada@example.net'],
      ['topic_in', 'api', 'topic', 'ada@example.net'],
      ['topic_out', 'api', 'topic', 'ada@example.net'],
    ]);
    expect(rows.slice(1).every((row) => row.topicId === news)).toBe(true);
  });

  it('an address suppressed and taken off the list', async () => {
    const contactId = (await call('POST', '/contacts', { email: 'ada@example.net' })).body.id as string;
    const since = await lastEntryId();
    const added = await call('POST', '/suppressions', { email: 'ada@example.net' });
    expect(added.status, added.text).toBe(200);
    expect((await call('POST', '/suppressions/batch', { emails: ['bob@example.net'] })).status).toBe(200);
    app.clock.advance(60_000);
    expect((await call('DELETE', '/suppressions/ada%40example.net')).status).toBe(200);
    const rows = await entriesSince(since);
    expect(brief(rows)).toEqual([
      ['suppressed', 'api', 'organization', 'ada@example.net'],
      ['suppressed', 'api', 'organization', 'bob@example.net'],
      ['unsuppressed', 'api', 'organization', 'ada@example.net'],
    ]);
    // A suppression names the contact of its address, when there is one; the removal is dated by the clock.
    expect(rows.map((row) => row.contactId)).toEqual([contactId, null, contactId]);
    expect(rows[2]!.createdAt).toEqual(app.clock.now());
  });
});

describe('a member in the dashboard', () => {
  it('names the member, not a key', async () => {
    const person = await signUpPerson(app, 'owner@acme.example.com');
    const since = await lastEntryId();
    const made = await dashboardCall(app, person.cookie, 'mutation', 'contacts.create', { email: 'ada@example.net' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const changed = await dashboardCall(app, person.cookie, 'mutation', 'contacts.update', { idOrEmail: 'ada%40example.net', unsubscribed: true });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const rows = await entriesSince(since, person.organizationId);
    expect(brief(rows)).toEqual([
      ['subscribed', 'dashboard', 'organization', 'ada@example.net'],
      ['unsubscribed', 'dashboard', 'organization', 'ada@example.net'],
    ]);
    expect(rows.every((row) => row.userId === person.userId && row.apiKeyId === null)).toBe(true);
  });
});

describe('an import', () => {
  it('names the import and the key that asked for it', async () => {
    const keyId = await keyIdOf();
    const segmentId = (await call('POST', '/segments', { name: 'Imported' })).body.id as string;
    const since = await lastEntryId();
    const upload = await uploadImport(app, org.apiKey, 'email,first_name\nada@example.net,Ada\nbob@example.net,Bob\n', { segments: [{ id: segmentId }] });
    expect(upload.status, upload.text).toBe(202);
    for (let i = 0; i < 20 && (await sweepContactImports(app.runtime.deps)).outcomes.more; i += 1);
    const rows = await entriesSince(since);
    expect(brief(rows).sort()).toEqual(
      [
        ['subscribed', 'import', 'organization', 'ada@example.net'],
        ['subscribed', 'import', 'audience', 'ada@example.net'],
        ['subscribed', 'import', 'organization', 'bob@example.net'],
        ['subscribed', 'import', 'audience', 'bob@example.net'],
      ].sort(),
    );
    expect(rows.every((row) => row.importId === upload.body.id && row.apiKeyId === keyId)).toBe(true);
  });
});

describe('the recipient', () => {
  const ADDRESS = 'ada@example.net';
  async function broadcastCopy() {
    const member = await seedAudienceMember(app, { address: ADDRESS });
    const copy = await seedBroadcastCopy(app, { ...member, address: ADDRESS });
    return { ...member, ...copy };
  }
  const post = (token: string, body: string, userAgent: string) =>
    fetch(`${app.url}/unsubscribe/${token}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent }, body });

  it('one-click names the email, the client’s address and user agent', async () => {
    const s = await broadcastCopy();
    const since = await lastEntryId();
    expect((await post(s.token, 'List-Unsubscribe=One-Click', 'MailClient/1.0')).status).toBe(200);
    const rows = await entriesSince(since, s.organizationId);
    expect(brief(rows)).toEqual([['unsubscribed', 'one_click', 'audience', ADDRESS]]);
    expect(rows[0]).toMatchObject({ emailId: s.emailId, clientAddress: '127.0.0.1', userAgent: 'MailClient/1.0', contactId: s.contactId, audienceId: s.audienceId });
  });

  it('the page’s “stop everything” leaves the audience, unsubscribes from everything and suppresses, all from the page', async () => {
    const s = await broadcastCopy();
    const since = await lastEntryId();
    expect((await post(s.token, 'confirm=1&everything=1', 'Browser/2.0')).status).toBe(200);
    const rows = await entriesSince(since, s.organizationId);
    expect(brief(rows)).toEqual([
      ['unsubscribed', 'preference_page', 'audience', ADDRESS],
      ['unsubscribed', 'preference_page', 'organization', ADDRESS],
      ['suppressed', 'preference_page', 'organization', ADDRESS],
    ]);
    expect(rows.every((row) => row.emailId === s.emailId && row.userAgent === 'Browser/2.0')).toBe(true);
  });

  it('mail to the List-Unsubscribe address', async () => {
    const s = await broadcastCopy();
    const since = await lastEntryId();
    const outcome = await unsubscribe(app.runtime.deps, s.token, { everything: false, via: 'mailto' });
    expect(outcome?.changed).toBe(true);
    const rows = await entriesSince(since, s.organizationId);
    expect(brief(rows)).toEqual([['unsubscribed', 'mailto', 'audience', ADDRESS]]);
    expect(rows[0]).toMatchObject({ emailId: s.emailId, clientAddress: null });
  });

  it('a complaint and a hard bounce suppress, naming the email', async () => {
    const sent = await call('POST', '/emails', { from: 'Acme <hello@acme.example.com>', to: ['ada@example.net', 'bob@example.net'], subject: 'Receipt', text: 'Thanks' });
    expect(sent.status, sent.text).toBe(200);
    const id = sent.body.id as string;
    await db().update(emails).set({ status: 'delivered', nextAttemptAt: null }).where(eq(emails.id, id));
    await db().update(emailRecipients).set({ status: 'delivered', attempts: 1, response: '250 2.0.0 Ok' }).where(eq(emailRecipients.emailId, id));
    const since = await lastEntryId();
    expect(await recordDeliveryReport(app.runtime.deps, { emailId: id, recipientIndex: 0, kind: 'complaint', feedbackType: 'abuse' })).toMatchObject({ recorded: true, suppressed: true });
    expect(await recordDeliveryReport(app.runtime.deps, { emailId: id, recipientIndex: 1, kind: 'hard', status: '5.1.1' })).toMatchObject({ recorded: true, suppressed: true });
    const rows = await entriesSince(since);
    expect(brief(rows)).toEqual([
      ['suppressed', 'complaint', 'organization', 'ada@example.net'],
      ['suppressed', 'bounce', 'organization', 'bob@example.net'],
    ]);
    expect(rows.every((row) => row.emailId === id)).toBe(true);
  });
});

describe('GET /contacts/{idOrEmail}/consent', () => {
  it('lists the contact’s entries oldest first, pages, and still answers by address once the contact is deleted', async () => {
    const made = await call('POST', '/contacts', { email: 'ada@example.net' });
    for (const unsubscribed of [true, false, true]) await call('PATCH', `/contacts/${made.body.id}`, { unsubscribed });
    const first = await call('GET', `/contacts/${made.body.id}/consent?limit=3`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.map((entry: { action: string }) => entry.action)).toEqual(['subscribed', 'unsubscribed', 'subscribed']);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.data[0]).toMatchObject({ email: 'ada@example.net', via: 'api', audienceId: null, topicId: null, formId: null, createdAt: expect.any(String) });
    const rest = await call('GET', `/contacts/ada%40example.net/consent?after=${first.body.nextCursor}`);
    expect(rest.body).toMatchObject({ data: [{ action: 'unsubscribed' }], hasMore: false });
    expect((await call('DELETE', `/contacts/${made.body.id}`)).status).toBe(200);
    const afterDeletion = await call('GET', '/contacts/ada%40example.net/consent');
    expect(afterDeletion.status, afterDeletion.text).toBe(200);
    expect(afterDeletion.body.data).toHaveLength(4);
    expect((await call('GET', `/contacts/${made.body.id}/consent`)).body.data).toHaveLength(4);
  });

  it('refuses what is not the organization’s (404), a bad cursor (400) and a sending key (403)', async () => {
    const other = await app.createOrg();
    const theirs = await call('POST', '/contacts', { email: 'ada@example.net' }, other.apiKey);
    expect((await call('GET', `/contacts/${theirs.body.id}/consent`)).status).toBe(404);
    expect((await call('GET', '/contacts/ada%40example.net/consent')).status).toBe(404);
    const mine = await call('POST', '/contacts', { email: 'bob@example.net' });
    const bad = await call('GET', `/contacts/${mine.body.id}/consent?after=x`);
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    const sending = await keyFor(app, org.organizationId, 'sending_access', 'live');
    expect((await call('GET', `/contacts/${mine.body.id}/consent`, undefined, sending)).status).toBe(403);
  });
});

describe('the ledger is append-only', () => {
  it('refuses a rewrite', async () => {
    await call('POST', '/contacts', { email: 'ada@example.net' });
    const mine = eq(consentEntries.organizationId, org.organizationId);
    const appendOnly = /consent entries are append-only/;
    expect(await refusal(db().update(consentEntries).set({ action: 'unsubscribed' }).where(mine))).toMatch(appendOnly);
    expect(await refusal(db().update(consentEntries).set({ createdAt: new Date(0) }).where(mine))).toMatch(appendOnly);
    expect(await refusal(db().update(consentEntries).set({ clientAddress: '192.0.2.1' }).where(mine))).toMatch(appendOnly);
    // The erasure's one rewrite: the address for its hash, nothing else changed.
    expect(await refusal(db().update(consentEntries).set({ email: null, emailHash: 'h', action: 'unsubscribed' }).where(mine))).toMatch(appendOnly);
    expect(await refusal(db().update(consentEntries).set({ email: null, emailHash: 'h' }).where(mine))).toBe('written');
  });

  it('an erasure keeps the entries with the address hashed and the client dropped; the export lists them before and after', async () => {
    const s = await seedAudienceMember(app, { address: 'ada@example.net' });
    const copy = await seedBroadcastCopy(app, { ...s, address: 'ada@example.net' });
    const owner = await keyFor(app, s.organizationId, 'full_access', 'live');
    const unsubscribed = await fetch(`${app.url}/unsubscribe/${copy.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Browser/2.0' },
      body: 'confirm=1&everything=1',
    });
    expect(unsubscribed.status).toBe(200);
    const exported = await call('GET', '/recipients/ada%40example.net/data', undefined, owner);
    expect(exported.status, exported.text).toBe(200);
    const actions = exported.body.consent.map((entry: { action: string; via: string }) => `${entry.action} ${entry.via}`);
    expect(actions.slice(-3)).toEqual(['unsubscribed preference_page', 'unsubscribed preference_page', 'suppressed preference_page']);
    expect(exported.body.consent.at(-1)).toMatchObject({ email: 'ada@example.net', userAgent: 'Browser/2.0', clientAddress: '127.0.0.1', emailId: copy.emailId });

    const erased = await call('DELETE', '/recipients/ada%40example.net/data', undefined, owner);
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.consentEntriesHashed).toBe(exported.body.consent.length);
    const kept = await entriesSince(0, s.organizationId);
    expect(kept).toHaveLength(exported.body.consent.length);
    expect(kept.every((row) => row.email === null && /^[0-9a-f]{64}$/.test(row.emailHash ?? '') && row.clientAddress === null && row.userAgent === null)).toBe(true);
    // The erasure's clean-up of duplicate suppression entries is no opt-in: nothing was appended.
    expect(kept.map((row) => `${row.action} ${row.via}`)).toEqual(actions);
    // Still there for the person who asks again with the address: by its hash.
    const again = await call('GET', '/recipients/ada%40example.net/data', undefined, owner);
    expect(again.body.consent.map((entry: { action: string; via: string }) => `${entry.action} ${entry.via}`)).toEqual(actions);
    expect(again.body.consent.every((entry: { email: string | null }) => entry.email === null)).toBe(true);
  });
});

describe('an organization’s erasure', () => {
  it('takes its ledger with it and appends nothing for the suppressions it deletes', async () => {
    await call('POST', '/contacts', { email: 'ada@example.net' });
    await call('POST', '/suppressions', { email: 'ada@example.net' });
    const other = await app.createOrg();
    await call('POST', '/contacts', { email: 'bob@example.net' }, other.apiKey);
    await db().execute(sql`delete from organizations where id = ${org.organizationId}`);
    expect(await entriesSince(0)).toEqual([]);
    expect(await entriesSince(0, other.organizationId)).toHaveLength(1);
  });
});

describe('contact.consent_changed', () => {
  it('is one event per entry a change wrote, with what it was and through what, delivered to the endpoints that want it', async () => {
    app.dns.set('hooks.example.com', 'A', ['93.184.216.34']);
    const hook = await call('POST', '/webhooks', { url: 'https://hooks.example.com/', events: ['contact.consent_changed'] });
    expect(hook.status, hook.text).toBe(201);
    const made = await call('POST', '/contacts', { email: 'ada@example.net' });
    expect((await call('PATCH', `/contacts/${made.body.id}`, { unsubscribed: true })).status).toBe(200);
    const logged = await db().select().from(events).where(and(eq(events.organizationId, org.organizationId), eq(events.type, 'contact.consent_changed'))).orderBy(events.id);
    const entries = await entriesSince(0);
    expect(logged.map((event) => event.data)).toEqual(
      entries.map((entry) => ({
        contactId: made.body.id,
        email: 'ada@example.net',
        action: entry.action,
        via: 'api',
        audienceId: null,
        topicId: null,
        formId: null,
        formVersion: null,
        emailId: null,
        entryId: String(entry.id),
      })),
    );
    expect(logged.map((event) => (event.data as { action: string }).action)).toEqual(['subscribed', 'unsubscribed']);
    const deliveries = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.body.id));
    expect(deliveries.map((delivery) => delivery.eventType)).toEqual(['contact.consent_changed', 'contact.consent_changed']);
  });
});
