import { readdir, rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '@/db/client';
import { MIGRATIONS, migrationEngines, migrationsBefore } from './support/migration-engines';

// Migration 0020 moves every email's `recipient_states` array into `email_recipients` rows and drops
// the array. A database is built up to 0019, given emails in every state, migrated, and read back:
// on PGlite, and on Postgres too when DATABASE_URL names one (a fresh database beside it).

const NEW_MIGRATION = '0020_email_recipients';

const ORG = '01920000-0000-7000-8000-0000000000aa';
const QUEUED = '01920000-0000-7000-8000-000000000001';
const RETRYING = '01920000-0000-7000-8000-000000000002';
const DELIVERED = '01920000-0000-7000-8000-000000000003';
const BOUNCED = '01920000-0000-7000-8000-000000000004';
const EMPTY = '01920000-0000-7000-8000-000000000005';
const RETRY_AT = '2026-12-01T10:15:00.000Z';

interface OldEmail {
  id: string;
  status: string;
  nextAttemptAt: string | null;
  states: Array<{ address: string; status: string; attempts: number; response?: string }>;
}

const OLD_EMAILS: OldEmail[] = [
  {
    id: QUEUED,
    status: 'queued',
    nextAttemptAt: '2026-12-01T10:00:00.000Z',
    states: [
      { address: 'Ada@Example.NET', status: 'pending', attempts: 0 },
      { address: 'bob@other.example', status: 'pending', attempts: 0 },
    ],
  },
  {
    id: RETRYING,
    status: 'sent',
    nextAttemptAt: RETRY_AT,
    states: [
      { address: 'cy@example.net', status: 'delivered', attempts: 1, response: '250 2.0.0 Ok' },
      { address: 'di@grey.example', status: 'deferred', attempts: 2, response: '451 4.7.1 greylisted' },
      { address: 'ed@example.net', status: 'pending', attempts: 0 },
    ],
  },
  { id: DELIVERED, status: 'delivered', nextAttemptAt: null, states: [{ address: 'fay@example.net', status: 'delivered', attempts: 1, response: '250 queued as 12' }] },
  {
    id: BOUNCED,
    status: 'bounced',
    nextAttemptAt: null,
    states: [
      { address: 'gone@example.net', status: 'bounced', attempts: 1, response: '550 5.1.1 no such user' },
      { address: 'quiet@example.net', status: 'suppressed', attempts: 0 },
    ],
  },
  { id: EMPTY, status: 'failed', nextAttemptAt: null, states: [] },
];

/** Emails as the schema before 0020 stores them: the recipients in a JSON array on the row. */
async function insertOldEmails(database: Database): Promise<void> {
  await database.db.execute(sql`insert into organizations (id, name, owner_email, created_at) values (${ORG}, 'Acme', 'owner@acme.test', now())`);
  for (const email of OLD_EMAILS) {
    const addresses = email.states.map((state) => state.address);
    await database.db.execute(sql`insert into emails (id, organization_id, mode, "from", from_address, "to", cc, bcc, reply_to, recipient_addresses,
        subject, headers, tags, tag_keys, track_opens, track_clicks, status, next_attempt_at, recipient_states, created_at, updated_at)
      values (${email.id}, ${ORG}, 'live', 'hello@acme.example.com', 'hello@acme.example.com', ${`{${addresses.join(',')}}`}::text[], '{}', '{}', '{}',
        ${`{${addresses.map((address) => address.toLowerCase()).join(',')}}`}::text[], 'Receipt', '{}', '[]', '{}', false, false,
        ${email.status}, ${email.nextAttemptAt}::timestamptz, ${JSON.stringify(email.states)}::jsonb, now(), now())`);
  }
}

interface Row {
  email_id: string;
  recipient_index: number;
  address: string;
  status: string;
  attempts: number;
  next_attempt_at: Date | string | null;
  response: string | null;
  provider: string;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

const engines = migrationEngines();

describe.each(engines)('migration 0020 (email_recipients) on $name', (engine) => {
  let database: Database & { drop(): Promise<void> };
  let before: string;
  beforeAll(async () => {
    before = await migrationsBefore(NEW_MIGRATION);
    database = await engine.open();
    await engine.migrate(database, before);
    await insertOldEmails(database);
    await engine.migrate(database, MIGRATIONS);
  }, 120_000);
  afterAll(async () => {
    await database?.drop();
    if (before) await rm(before, { recursive: true, force: true });
  });

  it('applied every migration of the folder', async () => {
    const applied = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    const files = (await readdir(MIGRATIONS)).filter((file) => file.endsWith('.sql'));
    expect(applied[0]!.n).toBe(files.length);
  });

  it('gives every recipient a row in envelope order, pending ones still pending', async () => {
    const rows = await queryRows<Row>(database.db, sql`select * from email_recipients order by email_id, recipient_index`);
    expect(rows.map((row) => ({ ...row, next_attempt_at: iso(row.next_attempt_at) }))).toEqual([
      { email_id: QUEUED, recipient_index: 0, address: 'Ada@Example.NET', status: 'pending', attempts: 0, next_attempt_at: null, response: null, provider: 'example.net' },
      { email_id: QUEUED, recipient_index: 1, address: 'bob@other.example', status: 'pending', attempts: 0, next_attempt_at: null, response: null, provider: 'other.example' },
      { email_id: RETRYING, recipient_index: 0, address: 'cy@example.net', status: 'delivered', attempts: 1, next_attempt_at: null, response: '250 2.0.0 Ok', provider: 'example.net' },
      { email_id: RETRYING, recipient_index: 1, address: 'di@grey.example', status: 'deferred', attempts: 2, next_attempt_at: RETRY_AT, response: '451 4.7.1 greylisted', provider: 'grey.example' },
      { email_id: RETRYING, recipient_index: 2, address: 'ed@example.net', status: 'pending', attempts: 0, next_attempt_at: null, response: null, provider: 'example.net' },
      { email_id: DELIVERED, recipient_index: 0, address: 'fay@example.net', status: 'delivered', attempts: 1, next_attempt_at: null, response: '250 queued as 12', provider: 'example.net' },
      { email_id: BOUNCED, recipient_index: 0, address: 'gone@example.net', status: 'bounced', attempts: 1, next_attempt_at: null, response: '550 5.1.1 no such user', provider: 'example.net' },
      { email_id: BOUNCED, recipient_index: 1, address: 'quiet@example.net', status: 'suppressed', attempts: 0, next_attempt_at: null, response: null, provider: 'example.net' },
    ]);
    // The emails themselves keep their status and due time.
    const emails = await queryRows<{ id: string; status: string; next_attempt_at: Date | string | null }>(database.db, sql`select id, status, next_attempt_at from emails order by id`);
    expect(emails.map((email) => [email.id, email.status, iso(email.next_attempt_at)])).toEqual(OLD_EMAILS.map((email) => [email.id, email.status, email.nextAttemptAt]));
  });

  it('drops the array, and the rows go with their email', async () => {
    const columns = await queryRows<{ column_name: string }>(database.db, sql`select column_name from information_schema.columns where table_name = 'emails' and column_name = 'recipient_states'`);
    expect(columns).toEqual([]);
    await database.db.execute(sql`delete from emails where id = ${BOUNCED}`);
    const left = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from email_recipients where email_id = ${BOUNCED}`);
    // Since migration 0021 they go by a statement trigger, not a foreign key (test/dependent-rows.test.ts).
    expect(left[0]!.n).toBe(0);
  });
});
