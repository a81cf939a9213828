import { and, asc, eq, isNotNull, lte, ne, sql } from 'drizzle-orm';
import { emails } from '@/db/schema';
import type { Deps } from '../deps';
import { deliverLive } from './email-live-delivery';
import type { EmailStatus } from './emails';
import { simulateTestEmail } from './test-mode';

type EmailRow = typeof emails.$inferSelect;

const MINUTE = 60_000;
/** A claimed email whose worker died is due again after this. */
export const DISPATCH_LEASE_MS = 10 * MINUTE;

export interface DispatchResult {
  outcome: 'skipped' | EmailStatus;
  /** When the email is due again (a retry, a test-mode step), or null when it is done. */
  nextAttemptAt: string | null;
}
/**
 * Claims a due email by one atomic update, so it is handled once even when the runner, an
 * Inngest function and another process reach it together, and so a cancel or reschedule either
 * wins before the claim (nothing is sent) or finds the email no longer scheduled (409).
 */
async function claim(deps: Deps, id: string): Promise<EmailRow | null> {
  const now = deps.clock.now();
  const [row] = await deps.db
    .update(emails)
    .set({
      nextAttemptAt: new Date(now.getTime() + DISPATCH_LEASE_MS),
      status: sql`case when ${emails.status} in ('queued', 'scheduled') then 'sending' else ${emails.status} end`,
      updatedAt: now,
    })
    .where(and(eq(emails.id, id), isNotNull(emails.nextAttemptAt), lte(emails.nextAttemptAt, now), ne(emails.status, 'canceled')))
    .returning();
  return row ?? null;
}

export async function dispatchEmail(deps: Deps, id: string): Promise<DispatchResult> {
  const row = await claim(deps, id);
  if (!row) return { outcome: 'skipped', nextAttemptAt: null };
  return row.mode === 'test' ? simulateTestEmail(deps, row) : deliverLive(deps, row);
}

/** When the email is next due, if that is still ahead: what a durable function sleeps until. */
export async function nextAttemptAtOf(deps: Pick<Deps, 'db' | 'clock'>, id: string): Promise<string | null> {
  const [row] = await deps.db.select({ at: emails.nextAttemptAt }).from(emails).where(eq(emails.id, id));
  return row?.at && row.at > deps.clock.now() ? row.at.toISOString() : null;
}

/** Due emails (queued, scheduled whose time came, retries, test-mode steps), oldest due first. */
export async function dueEmailIds(deps: Pick<Deps, 'db' | 'clock'>, limit = 100): Promise<string[]> {
  const rows = await deps.db
    .select({ id: emails.id })
    .from(emails)
    .where(and(isNotNull(emails.nextAttemptAt), lte(emails.nextAttemptAt, deps.clock.now())))
    .orderBy(asc(emails.nextAttemptAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

export async function sweepEmailDispatch(deps: Deps): Promise<number> {
  let handled = 0;
  for (const id of await dueEmailIds(deps)) if ((await dispatchEmail(deps, id)).outcome !== 'skipped') handled += 1;
  return handled;
}
