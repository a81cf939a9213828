import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { emails } from '@/db/schema';
import { sweepBroadcasts } from '@/server/services/broadcasts/fan-out';
import { sweepContactImports } from '@/server/services/contact-imports/run';
import { uploadImport } from './support/contact-imports';
import { preflightBroadcast } from '@/server/services/broadcasts/preflight/preflight';
import { startTestApp, type TestApp } from './support/app';
import { reviewedSendingOrg } from './support/sending-org';

// Issue 37 item 4: a broadcast may go only to contacts whose consent was confirmed, and the
// pre-flight says how many contacts have no recorded or no confirmed consent (docs/consent.md).

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

let org: { organizationId: string; apiKey: string };
beforeEach(async () => {
  await app.reset();
  org = await reviewedSendingOrg(app);
});

const db = () => app.runtime.deps.db;
const call = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) => app.request(method, `/api${path}`, { key: org.apiKey, body });
const principal = () => ({ organizationId: org.organizationId, permission: 'full_access' as const, mode: 'live' as const, keyId: null, domainId: null, userId: null, plan: '10k', rateLimitOverride: null });

/** An audience of ada, bob and cy (through the API: their subscription is recorded as the key's). */
async function audience(): Promise<{ audienceId: string; ids: Record<string, string> }> {
  const audienceId = (await call('POST', '/audiences', { name: 'Newsletter' })).body.id as string;
  const ids: Record<string, string> = {};
  for (const local of ['ada', 'bob', 'cy']) ids[local] = (await call('POST', `/audiences/${audienceId}/contacts`, { email: `${local}@example.net` })).body.id;
  return { audienceId, ids };
}

/**
 * The ledger's entry of a confirmation, as the double opt-in link writes it: written here through
 * the ledger's own function, so this suite does not depend on the confirmation flow.
 */
async function confirmed(contactId: string, email: string): Promise<void> {
  app.clock.advance(1_000);
  await db().execute(sql`select consent_append(${org.organizationId}::uuid, ${contactId}::uuid, ${email}, 'confirmed', null, null, 'confirmation', null, ${app.clock.now().toISOString()}::timestamptz)`);
}

async function drain(): Promise<void> {
  for (let i = 0; i < 100; i += 1) if (!(await sweepBroadcasts(app.runtime.deps)).outcomes.more) return;
  throw new Error('the fan-out did not finish');
}

const recipientsOf = async (broadcastId: string) => (await db().select({ to: emails.to }).from(emails).where(eq(emails.broadcastId, broadcastId))).map((row) => row.to[0]!.split('@')[0]).sort();
const consentCheck = async (id: string) => (await preflightBroadcast(app.runtime.deps, principal(), id)).checks.find((check) => check.id === 'recorded_consent')!;

async function broadcast(audienceId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const made = await call('POST', '/broadcasts', { audience_id: audienceId, from: 'Acme <news@acme.example.com>', subject: 'News', html: '<p>Hi {{ unsubscribe_url }}</p>', ...fields });
  expect(made.status, made.text).toBe(201);
  return made.body.id;
}

describe('a broadcast for confirmed contacts only', () => {
  it('reaches those whose latest confirmation came after their last opt-out from everything, and skips the others', async () => {
    const { audienceId, ids } = await audience();
    await confirmed(ids.ada!, 'ada@example.net');
    // Bob confirmed, left everything, and the organization subscribed him again: its call, not a confirmation.
    await confirmed(ids.bob!, 'bob@example.net');
    expect((await call('PATCH', `/contacts/${ids.bob}`, { unsubscribed: true })).status).toBe(200);
    expect((await call('PATCH', `/contacts/${ids.bob}`, { unsubscribed: false })).status).toBe(200);
    const id = await broadcast(audienceId, { require_confirmed_consent: true });
    expect((await call('GET', `/broadcasts/${id}`)).body.requireConfirmedConsent).toBe(true);

    const preflight = await consentCheck(id);
    expect(preflight).toMatchObject({ status: 'warn', detail: '2 of the 3 subscribed contacts (66.666 %) have no confirmed consent and will be skipped; 1 will get it.' });

    const sent = await call('POST', `/broadcasts/${id}/send`);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.counts.recipients).toBe(1);
    await drain();
    expect(await recipientsOf(id)).toEqual(['ada']);
  });

  it('fails the pre-flight when nobody confirmed, and is a setting of the draft, copied by a duplicate', async () => {
    const { audienceId } = await audience();
    const id = await broadcast(audienceId);
    expect((await call('GET', `/broadcasts/${id}`)).body.requireConfirmedConsent).toBe(false);
    expect((await consentCheck(id)).status).toBe('pass');
    const changed = await call('PATCH', `/broadcasts/${id}`, { require_confirmed_consent: true });
    expect([changed.status, changed.body.requireConfirmedConsent]).toEqual([200, true]);
    expect(await consentCheck(id)).toMatchObject({ status: 'fail', detail: expect.stringMatching(/^The broadcast goes only to contacts with confirmed consent, and none of the 3 subscribed contacts has it/) });
    const copy = await call('POST', `/broadcasts/${id}/duplicate`);
    expect(copy.body.requireConfirmedConsent).toBe(true);
    const refused = await call('PATCH', `/broadcasts/${id}`, { require_confirmed_consent: 'yes' });
    expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION_ERROR']);
  });
});

describe('an import that declares its rows’ consent confirmed', () => {
  it('confirms each imported contact but one unsubscribed from everything, naming the import; its contacts get a broadcast for confirmed contacts only', async () => {
    const segmentId = (await call('POST', '/segments', { name: 'Imported' })).body.id as string;
    // Dee left everything before: the import's declaration does not override her opt-out.
    expect((await call('POST', '/contacts', { email: 'dee@example.net', unsubscribed: true })).status).toBe(201);
    const upload = await uploadImport(app, org.apiKey, 'email\nada@example.net\nbob@example.net\ndee@example.net\n', { segments: [segmentId], on_conflict: 'upsert', confirmed_consent: 'true' });
    expect(upload.status, upload.text).toBe(202);
    for (let i = 0; i < 20 && (await sweepContactImports(app.runtime.deps)).outcomes.more; i += 1);
    const ledger = async (address: string) => (await call('GET', `/contacts/${encodeURIComponent(address)}/consent`)).body.data.map((entry: { action: string; via: string; importId: string | null }) => [entry.action, entry.via, entry.importId]);
    expect(await ledger('ada@example.net')).toEqual([
      ['subscribed', 'import', upload.body.id],
      ['subscribed', 'import', upload.body.id],
      ['confirmed', 'import', upload.body.id],
    ]);
    expect((await ledger('dee@example.net')).filter(([action]: string[]) => action === 'confirmed')).toEqual([]);
    // The import's read, and the list, say it declared its rows confirmed; an import that did not says so too.
    expect((await call('GET', `/contacts/imports/${upload.body.id}`)).body).toMatchObject({ id: upload.body.id, status: 'completed', confirmedConsent: true });
    const plain = await uploadImport(app, org.apiKey, 'email\ncy@example.net\n', { segments: [segmentId] });
    expect(plain.status, plain.text).toBe(202);
    expect((await call('GET', '/contacts/imports')).body.data.map((row: { id: string; confirmedConsent: boolean }) => [row.id, row.confirmedConsent])).toEqual([
      [plain.body.id, false],
      [upload.body.id, true],
    ]);
    const id = await broadcast(segmentId, { require_confirmed_consent: true });
    expect((await call('POST', `/broadcasts/${id}/send`)).body.counts.recipients).toBe(2);
    await drain();
    expect(await recipientsOf(id)).toEqual(['ada', 'bob']);
    const refused = await uploadImport(app, org.apiKey, 'email\nada@example.net\n', { confirmed_consent: 'yes' });
    expect([refused.status, refused.body.error]).toEqual([400, 'confirmed_consent: must be true or false']);
  });
});

describe('the pre-flight’s recorded consent', () => {
  it('warns about contacts whose subscription the ledger cannot tell', async () => {
    const { audienceId } = await audience();
    // A contact from before the ledger: its standing when the ledger began is all the ledger has of it.
    await db().execute(sql`delete from consent_entries where email = 'cy@example.net'`);
    await db().execute(sql`select consent_append(${org.organizationId}::uuid, null, 'cy@example.net', 'subscribed', null, null, 'before_ledger', null, now())`);
    const id = await broadcast(audienceId);
    expect(await consentCheck(id)).toMatchObject({ status: 'warn', detail: expect.stringMatching(/^1 of the 3 subscribed contacts \(33\.333 %\) have no recorded consent/) });
  });
});
