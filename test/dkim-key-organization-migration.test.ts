import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '@/db/client';
import { MIGRATIONS, migrationEngines, migrationsBefore } from './support/migration-engines';

// Migration 0028 gives every DKIM key its organization, taken from its domain, so erasing the
// organization takes the retired keys its deleted domains left behind. Keys that named no domain
// already (their domain deleted before it) cannot be given one and are dropped: retired, private key
// wiped, read by nothing. A database built up to 0027 with keys of each kind is migrated and read back.

const NEW_MIGRATION = '0028_dkim_key_organization';
const ACME = '01920000-0000-7000-8000-0000000000aa';
const OTHER = '01920000-0000-7000-8000-0000000000bb';
const ACME_DOMAIN = '01920000-0000-7000-8000-0000000000a1';
const OTHER_DOMAIN = '01920000-0000-7000-8000-0000000000b1';
const ACME_KEY = '01920000-0000-7000-8000-000000000001';
const ACME_RETIRED_KEY = '01920000-0000-7000-8000-000000000002';
const OTHER_KEY = '01920000-0000-7000-8000-000000000003';
const ORPHAN_KEY = '01920000-0000-7000-8000-000000000004';

/** Two organizations with a domain each, their keys (one retired by a rotation), and a key whose domain was deleted. */
async function insertOldKeys(database: Database): Promise<void> {
  for (const [id, name] of [[ACME, 'Acme'], [OTHER, 'Other']] as const) {
    await database.db.execute(sql`insert into organizations (id, name, owner_email, created_at) values (${id}, ${name}, ${`owner@${name.toLowerCase()}.test`}, now())`);
  }
  for (const [id, organizationId, name] of [[ACME_DOMAIN, ACME, 'acme.example.com'], [OTHER_DOMAIN, OTHER, 'other.example.com']] as const) {
    await database.db.execute(sql`insert into domains (id, organization_id, name, created_at) values (${id}, ${organizationId}, ${name}, now())`);
  }
  const keys = [
    [ACME_KEY, ACME_DOMAIN, 'sealed', null],
    [ACME_RETIRED_KEY, ACME_DOMAIN, null, 'now'],
    [OTHER_KEY, OTHER_DOMAIN, 'sealed', null],
    [ORPHAN_KEY, null, null, 'now'],
  ] as const;
  for (const [id, domainId, sealed, retired] of keys) {
    await database.db.execute(sql`insert into dkim_keys (id, domain_id, selector, public_key, private_key_encrypted, created_at, retired_at)
      values (${id}, ${domainId}, ${`s${id.slice(-1)}`}, 'MIIB', ${sealed}, now(), ${retired === null ? null : sql`now()`})`);
  }
}

describe.each(migrationEngines())('migration 0028 (dkim_keys.organization_id) on $name', (engine) => {
  let database: Database & { drop(): Promise<void> };
  let before: string;
  beforeAll(async () => {
    before = await migrationsBefore(NEW_MIGRATION);
    database = await engine.open();
    await engine.migrate(database, before);
    await insertOldKeys(database);
    await engine.migrate(database, MIGRATIONS);
  }, 120_000);
  afterAll(async () => {
    await database?.drop();
    if (before) await rm(before, { recursive: true, force: true });
  });

  it('gives each key its domain’s organization, and drops the keys that named no domain', async () => {
    const rows = await queryRows<{ id: string; organization_id: string }>(database.db, sql`select id, organization_id from dkim_keys order by id`);
    expect(rows).toEqual([
      { id: ACME_KEY, organization_id: ACME },
      { id: ACME_RETIRED_KEY, organization_id: ACME },
      { id: OTHER_KEY, organization_id: OTHER },
    ]);
  });

  it('from now on a key must name its organization, and goes with it', async () => {
    const refused: unknown = await database.db.execute(sql`insert into dkim_keys (id, selector, public_key, created_at) values (${'01920000-0000-7000-8000-000000000009'}, 'sx', 'MIIB', now())`).then(
      () => null,
      (error: { cause?: unknown }) => error.cause ?? error,
    );
    expect(String(refused)).toMatch(/null value in column "organization_id"/);
    // The domain deleted: the key stays, naming no domain, until its organization goes.
    await database.db.execute(sql`delete from domains where id = ${ACME_DOMAIN}`);
    expect(await queryRows(database.db, sql`select id from dkim_keys where organization_id = ${ACME} and domain_id is null`)).toHaveLength(2);
    await database.db.execute(sql`delete from organizations where id = ${ACME}`);
    const left = await queryRows<{ id: string }>(database.db, sql`select id from dkim_keys order by id`);
    expect(left).toEqual([{ id: OTHER_KEY }]);
  });
});
