import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { apiKeys } from '@/db/schema';
import { pageQuery } from '@/server/routers/shared';
import { fetchPage } from '@/server/services/shared/pagination';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('cursor pagination', () => {
  it('walks every row once, newest first, and ends with a null cursor', async () => {
    const { organizationId } = await app.createOrg();
    for (let i = 0; i < 24; i += 1) {
      app.clock.advance(1);
      await keyFor(app, organizationId, 'full_access', 'test');
    }
    const all = await app.runtime.deps.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.organizationId, organizationId));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await fetchPage(apiKeys.id, { limit: 10, cursor }, ({ where, orderBy, limit }) =>
        app.runtime.deps.db.select({ id: apiKeys.id }).from(apiKeys).where(and(eq(apiKeys.organizationId, organizationId), where)).orderBy(orderBy).limit(limit),
      );
      seen.push(...page.data.map((row) => row.id));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(all.length);
    expect(seen).toEqual([...seen].sort().reverse());
    expect(new Set(seen).size).toBe(all.length);
  });

  it('validates limit and cursor with the bounds it is given', () => {
    const schema = z.object(pageQuery({ max: 100, default: 10 }));
    expect(schema.parse({})).toEqual({ limit: 10 });
    expect(schema.parse({ limit: '100' })).toEqual({ limit: 100 });
    expect(schema.safeParse({ limit: '0' }).error?.issues[0]?.message).toBe('must be between 1 and 100');
    expect(schema.safeParse({ limit: '101' }).success).toBe(false);
    expect(schema.safeParse({ limit: '2.5' }).success).toBe(false);
    expect(schema.safeParse({ cursor: 'abc' }).error?.issues[0]?.message).toBe('must be the next_cursor of a previous page');
  });
});
