import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { deliveryProviderDomains, deliveryShaping } from '@/db/schema';

/** A provider paused for one sending domain, or for every one (`sendingDomain` ''). */
export interface StoredPause {
  provider: string;
  sendingDomain: string;
  at: Date;
  /** null: until an operator resumes it. */
  until: Date | null;
  by: 'reply' | 'operator';
  reason: string;
}

export interface LaneRow {
  provider: string;
  sendingDomain: string;
  ratePerMinute: number | null;
  replies: number;
  deferrals: number;
}

/** Where the shaper keeps what must be shared or survive a restart; never on the send path. */
export interface ShapingStore {
  savePause(pause: StoredPause): Promise<void>;
  clearPause(provider: string, sendingDomain: string): Promise<void>;
  readPauses(): Promise<StoredPause[]>;
  saveLanes(lanes: LaneRow[], at: Date): Promise<void>;
  readLanes(): Promise<LaneRow[]>;
  saveDomains(domains: Array<[domain: string, provider: string]>, at: Date): Promise<void>;
}

const pauseOf = (row: typeof deliveryShaping.$inferSelect): StoredPause => ({
  provider: row.provider,
  sendingDomain: row.sendingDomain,
  at: row.pausedAt!,
  until: row.pausedUntil,
  by: row.pausedBy === 'operator' ? 'operator' : 'reply',
  reason: row.pauseReason ?? '',
});

export function databaseShapingStore(db: Db): ShapingStore {
  return {
    async savePause(pause) {
      const set = { pausedAt: pause.at, pausedUntil: pause.until, pausedBy: pause.by, pauseReason: pause.reason.slice(0, 1000), updatedAt: pause.at };
      await db
        .insert(deliveryShaping)
        .values({ provider: pause.provider, sendingDomain: pause.sendingDomain, ...set })
        .onConflictDoUpdate({ target: [deliveryShaping.provider, deliveryShaping.sendingDomain], set });
    },
    async clearPause(provider, sendingDomain) {
      await db
        .update(deliveryShaping)
        .set({ pausedAt: null, pausedUntil: null, pausedBy: null, pauseReason: null })
        .where(and(eq(deliveryShaping.provider, provider), eq(deliveryShaping.sendingDomain, sendingDomain)));
    },
    async readPauses() {
      return (await db.select().from(deliveryShaping).where(isNotNull(deliveryShaping.pausedAt))).map(pauseOf);
    },
    async saveLanes(lanes, at) {
      if (lanes.length === 0) return;
      await db
        .insert(deliveryShaping)
        .values(lanes.map((lane) => ({ ...lane, updatedAt: at })))
        .onConflictDoUpdate({
          target: [deliveryShaping.provider, deliveryShaping.sendingDomain],
          set: { ratePerMinute: sql`excluded.rate_per_minute`, replies: sql`excluded.replies`, deferrals: sql`excluded.deferrals`, updatedAt: sql`excluded.updated_at` },
        });
    },
    async readLanes() {
      return db
        .select({ provider: deliveryShaping.provider, sendingDomain: deliveryShaping.sendingDomain, ratePerMinute: deliveryShaping.ratePerMinute, replies: deliveryShaping.replies, deferrals: deliveryShaping.deferrals })
        .from(deliveryShaping);
    },
    async saveDomains(domains, at) {
      if (domains.length === 0) return;
      await db
        .insert(deliveryProviderDomains)
        .values(domains.map(([domain, provider]) => ({ domain, provider, seenAt: at })))
        .onConflictDoUpdate({ target: deliveryProviderDomains.domain, set: { provider: sql`excluded.provider`, seenAt: sql`excluded.seen_at` } });
    },
  };
}
