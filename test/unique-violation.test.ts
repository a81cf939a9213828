import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { organizations, topics } from '@/db/schema';
import { isUniqueViolation } from '@/db/unique-violation';
import { newId } from '@/server/ids';
import { openTestDatabase, resetDatabase } from './support/database';

// The one test of a unique violation (SQLSTATE 23505) as the engine under test reports it: PGlite
// by default, postgres-js with DATABASE_URL; inside a transaction and out, wrapped by drizzle.

let database: Database & { drop(): Promise<void> };
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
  await database.drop();
});
beforeEach(() => resetDatabase(database));

const at = new Date('2026-11-20T10:00:00Z');
const topic = (organizationId: string, name: string) => ({ id: newId(), organizationId, name, defaultSubscription: 'opt_in' as const, createdAt: at, updatedAt: at });
const refusalOf = (write: Promise<unknown>) => write.then(() => expect.unreachable('the write was taken'), (error: unknown) => error);

describe('isUniqueViolation', () => {
  it('knows a unique index refusing a write, in a transaction and out', async () => {
    const organizationId = newId();
    await database.db.insert(organizations).values({ id: organizationId, name: 'Acme', plan: 'free', ownerEmail: 'owner@acme.example', createdAt: at });
    await database.db.insert(topics).values(topic(organizationId, 'News'));
    expect(isUniqueViolation(await refusalOf(database.db.insert(topics).values(topic(organizationId, 'NEWS'))))).toBe(true);
    expect(isUniqueViolation(await refusalOf(database.db.transaction((tx) => tx.insert(topics).values(topic(organizationId, 'news')))))).toBe(true);
  });

  it('is false for any other refusal or error', async () => {
    // A foreign key refusing (23503) is not a unique violation.
    expect(isUniqueViolation(await refusalOf(database.db.insert(topics).values(topic(newId(), 'News'))))).toBe(false);
    expect(isUniqueViolation(new Error('duplicate key value violates unique constraint'))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
    expect(isUniqueViolation('23505')).toBe(false);
  });
});
