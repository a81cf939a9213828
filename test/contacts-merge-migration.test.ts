import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '@/db/client';
import { getContact as readContact } from '@/server/services/contacts/read';
import { contactIdOf } from '@/server/services/contacts/target';
import type { Principal } from '@/server/services/shared/principal';
import { findRecipient } from '@/server/services/unsubscribe/recipient';
import { MIGRATIONS, migrationEngines, migrationsBefore } from './support/migration-engines';

// Migrations 0033–0035 make contacts one per (organization, address): today's per-audience rows
// are merged, the oldest id survives, every row becomes a membership keeping its own subscription
// and its id (unsubscribe tokens already sent name it), and the other ids answer as aliases. A
// database built up to 0032 with an address in three audiences, with conflicting names and
// opt-outs, is migrated and read back through the services. A broadcast walking one of those
// audiences holds the upgrade back until it is sent.

const FIRST_NEW = '0033_contact_memberships';
const ACME = '01920000-0000-7000-8000-0000000000aa';
const OTHER = '01920000-0000-7000-8000-0000000000bb';
const NEWS = '01920000-0000-7000-8000-0000000000a1';
const OFFERS = '01920000-0000-7000-8000-0000000000a2';
const EVENTS = '01920000-0000-7000-8000-0000000000a3';
const OTHER_LIST = '01920000-0000-7000-8000-0000000000a4';
const ADA_NEWS = '01920000-0000-7000-8000-000000000001';
const ADA_OFFERS = '01920000-0000-7000-8000-000000000002';
const ADA_EVENTS = '01920000-0000-7000-8000-000000000003';
const BOB_NEWS = '01920000-0000-7000-8000-000000000004';
const ADA_OTHER = '01920000-0000-7000-8000-000000000005';
const BROADCAST = '01920000-0000-7000-8000-0000000000c1';

const principalOf = (organizationId: string): Principal => ({
  organizationId, permission: 'full_access', mode: 'live', keyId: null, domainId: null, userId: null, plan: 'free', rateLimitOverride: null,
});

/** Acme: ada in three audiences (named twice, opted out of one), bob in one (opted out); Other: ada too. */
async function insertOldContacts(database: Database): Promise<void> {
  for (const [id, name] of [[ACME, 'Acme'], [OTHER, 'Other']] as const) {
    await database.db.execute(sql`insert into organizations (id, name, owner_email, created_at) values (${id}, ${name}, ${`owner@${name.toLowerCase()}.test`}, now())`);
  }
  const lists = [[NEWS, ACME, 'News', 2], [OFFERS, ACME, 'Offers', 1], [EVENTS, ACME, 'Events', 1], [OTHER_LIST, OTHER, 'Theirs', 1]] as const;
  for (const [id, organizationId, name, count] of lists) {
    await database.db.execute(sql`insert into audiences (id, organization_id, name, contact_count, created_at) values (${id}, ${organizationId}, ${name}, ${count}, now())`);
  }
  const rows = [
    [ADA_NEWS, ACME, NEWS, 'ada@example.net', 'Ada', true, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
    [ADA_OFFERS, ACME, OFFERS, 'ada@example.net', 'Ada Lovelace', false, '2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z'],
    [ADA_EVENTS, ACME, EVENTS, 'ada@example.net', null, true, '2026-04-01T00:00:00Z', '2026-04-01T00:00:00Z'],
    [BOB_NEWS, ACME, NEWS, 'bob@example.net', 'Bob', false, '2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z'],
    [ADA_OTHER, OTHER, OTHER_LIST, 'ada@example.net', 'A.', true, '2025-12-01T00:00:00Z', '2025-12-01T00:00:00Z'],
  ] as const;
  for (const [id, organizationId, audienceId, email, name, subscribed, createdAt, updatedAt] of rows) {
    await database.db.execute(sql`insert into contacts (id, organization_id, audience_id, email, name, subscribed, created_at, updated_at)
      values (${id}, ${organizationId}, ${audienceId}, ${email}, ${name}, ${subscribed}, ${createdAt}::timestamptz, ${updatedAt}::timestamptz)`);
  }
  // Half-way through the Offers audience.
  await database.db.execute(sql`insert into broadcasts (id, organization_id, audience_id, name, "from", status, cursor, created_at, updated_at)
    values (${BROADCAST}, ${ACME}, ${OFFERS}, 'Sale', 'Acme <news@acme.example.com>', 'sending', ${ADA_OFFERS}, now(), now())`);
}

describe.each(migrationEngines())('migrations 0033–0035 (one contact per address) on $name', (engine) => {
  let database: Database & { drop(): Promise<void> };
  let before: string;
  let refusal: unknown;
  beforeAll(async () => {
    before = await migrationsBefore(FIRST_NEW);
    database = await engine.open();
    await engine.migrate(database, before);
    await insertOldContacts(database);
    refusal = await engine.migrate(database, MIGRATIONS).then(
      () => null,
      (error: unknown) => error,
    );
    await database.db.execute(sql`update broadcasts set status = 'sent' where id = ${BROADCAST}`);
    await engine.migrate(database, MIGRATIONS);
  }, 120_000);
  afterAll(async () => {
    await database?.drop();
    if (before) await rm(before, { recursive: true, force: true });
  });

  it('waits for a broadcast sending to an audience whose contacts it merges', () => {
    expect(String((refusal as Error | null)?.message ?? refusal) + String((refusal as { cause?: Error } | null)?.cause?.message ?? '')).toMatch(
      /A broadcast is sending to an audience whose contacts this upgrade merges by address/,
    );
  });

  it('keeps one contact per address and organization, the oldest id, with the newest name and no global opt-out', async () => {
    const rows = await queryRows<{ id: string; organization_id: string; email: string; name: string | null; unsubscribed: boolean; updated_at: Date | string }>(
      database.db,
      sql`select id, organization_id, email, name, unsubscribed, updated_at from contacts order by organization_id, email`,
    );
    expect(rows.map(({ updated_at: updatedAt, ...row }) => ({ ...row, updatedAt: new Date(updatedAt).toISOString() }))).toEqual([
      { id: ADA_NEWS, organization_id: ACME, email: 'ada@example.net', name: 'Ada Lovelace', unsubscribed: false, updatedAt: '2026-04-01T00:00:00.000Z' },
      { id: BOB_NEWS, organization_id: ACME, email: 'bob@example.net', name: 'Bob', unsubscribed: false, updatedAt: '2026-01-02T00:00:00.000Z' },
      { id: ADA_OTHER, organization_id: OTHER, email: 'ada@example.net', name: 'A.', unsubscribed: false, updatedAt: '2025-12-01T00:00:00.000Z' },
    ]);
    const counts = await queryRows<{ id: string; contact_count: number }>(database.db, sql`select id, contact_count from organizations order by id`);
    expect(counts).toEqual([{ id: ACME, contact_count: 2 }, { id: OTHER, contact_count: 1 }]);
  });

  it('makes every row a membership with its own subscription and its id: no opt-out lost', async () => {
    const rows = await queryRows<{ id: string; audience_id: string; contact_id: string; subscribed: boolean }>(
      database.db,
      sql`select id, audience_id, contact_id, subscribed from audience_memberships order by id`,
    );
    expect(rows).toEqual([
      { id: ADA_NEWS, audience_id: NEWS, contact_id: ADA_NEWS, subscribed: true },
      { id: ADA_OFFERS, audience_id: OFFERS, contact_id: ADA_NEWS, subscribed: false },
      { id: ADA_EVENTS, audience_id: EVENTS, contact_id: ADA_NEWS, subscribed: true },
      { id: BOB_NEWS, audience_id: NEWS, contact_id: BOB_NEWS, subscribed: false },
      { id: ADA_OTHER, audience_id: OTHER_LIST, contact_id: ADA_OTHER, subscribed: true },
    ]);
    const audiences = await queryRows<{ id: string; contact_count: number }>(database.db, sql`select id, contact_count from audiences order by id`);
    expect(audiences.map((a) => a.contact_count)).toEqual([2, 1, 1, 1]);
  });

  it('answers the merged ids as the surviving contact, in each audience with that audience’s subscription', async () => {
    const acme = principalOf(ACME);
    // As the routes read `{contactId}`: the id resolved first, then the contact read in the audience.
    const getContact = async (principal: Principal, audienceId: string, id: string) => readContact(database, principal, audienceId, await contactIdOf(database, principal, audienceId, { id }));
    const inOffers = await getContact(acme, OFFERS, ADA_OFFERS);
    expect(inOffers).toMatchObject({ id: ADA_NEWS, email: 'ada@example.net', name: 'Ada Lovelace', subscribed: false });
    // A former id names the contact in every audience it is in, not only its own.
    expect(await getContact(acme, EVENTS, ADA_OFFERS)).toMatchObject({ id: ADA_NEWS, subscribed: true });
    expect(await getContact(acme, NEWS, ADA_EVENTS)).toMatchObject({ id: ADA_NEWS, subscribed: true });
    // Another organization's ids stay its own.
    await expect(getContact(principalOf(OTHER), OTHER_LIST, ADA_OFFERS)).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
  });

  it('keeps the unsubscribe tokens already sent working, each for the audience its email came from', async () => {
    expect(await findRecipient(database.db, ADA_OFFERS, { lock: false, emailId: ADA_NEWS })).toMatchObject({ id: ADA_NEWS, audienceId: OFFERS, subscribed: false, audienceName: 'Offers' });
    expect(await findRecipient(database.db, ADA_EVENTS, { lock: false, emailId: ADA_NEWS })).toMatchObject({ id: ADA_NEWS, audienceId: EVENTS, subscribed: true, audienceName: 'Events' });
  });
});
