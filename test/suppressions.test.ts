import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { suppressions } from '@/db/schema';
import { suppressAddress, suppressedAmong } from '@/server/services/suppressions/suppressions';
import { startTestApp, type TestApp } from './support/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

describe('suppression list', () => {
  it('stores each address once per organization, normalised, and keeps the first reason', async () => {
    const { organizationId } = await app.createOrg();
    const { db } = app.runtime.deps;
    expect(await suppressAddress(db, app.runtime.deps, { organizationId, email: 'Ada@Bücher.DE', reason: 'bounce' })).toBe(true);
    expect(await suppressAddress(db, app.runtime.deps, { organizationId, email: 'ada@xn--bcher-kva.de', reason: 'complaint' })).toBe(false);
    const rows = await db.select().from(suppressions);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: 'ada@xn--bcher-kva.de', reason: 'bounce', emailId: null });
  });

  it('tells which recipients are suppressed, as the caller wrote them, for its organization only', async () => {
    const a = await app.createOrg({ name: 'A' });
    const b = await app.createOrg({ name: 'B' });
    const { db } = app.runtime.deps;
    await suppressAddress(db, app.runtime.deps, { organizationId: a.organizationId, email: 'gone@example.com', reason: 'manual' });
    expect(await suppressedAmong(db, app.runtime.deps.encryptionKey, a.organizationId, ['GONE@example.com', 'here@example.com'])).toEqual(new Set(['GONE@example.com']));
    expect(await suppressedAmong(db, app.runtime.deps.encryptionKey, b.organizationId, ['gone@example.com'])).toEqual(new Set());
    expect(await suppressedAmong(db, app.runtime.deps.encryptionKey, a.organizationId, [])).toEqual(new Set());
  });
});
