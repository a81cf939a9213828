import { and, asc, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { systemEmails } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { admit } from '../emails/accept/admit';
import { claimable, claimedBy, unclaimedBy } from '../shared/claims/lease';
import type { DeliveryOutcome } from '../../mail/outcomes';
import { systemMessage } from './message';
import type { SystemMessage } from './store';

const MAX_ATTEMPTS = 8;
const RETRY_BASE_MS = 30_000;

/**
 * Queues one of our own messages in the caller's transaction, so it exists exactly when the change
 * that caused it does: through the admit door, whose system-mail store writes the outbox row. The
 * caller wakes `system-mail` with the answered id once it has committed.
 */
export async function enqueueSystemEmail(tx: Db, deps: Pick<Deps, 'clock' | 'metrics'>, message: SystemMessage): Promise<string> {
  return (await admit(deps, { via: 'system', tx, message })).id;
}

/**
 * A message due at `now`: what the sweep claims, and /metrics counts as due work. One left
 * 'sending' is due again once its holder is gone (the claim's own test).
 */
export const systemEmailIsDue = (now: Date | SQL) => and(inArray(systemEmails.status, ['pending', 'sending']), lte(systemEmails.nextAttemptAt, now))!;

const due = (deps: Pick<Deps, 'clock' | 'claims'>) => and(systemEmailIsDue(deps.clock.now()), claimable(systemEmails, deps.claims.claimant));

/**
 * Claims due messages through the one claim-and-lease mechanism, so two workers never send one
 * twice and a worker that died mid-send has its messages taken over within a lease. A message
 * left 'sending' without a live holder is due again.
 */
async function claim(deps: Deps, where: { id: string } | { limit: number }) {
  const chosen =
    'id' in where
      ? and(eq(systemEmails.id, where.id), due(deps))
      : inArray(
          systemEmails.id,
          deps.db.select({ id: systemEmails.id }).from(systemEmails).where(due(deps)).orderBy(asc(systemEmails.nextAttemptAt)).limit(where.limit).for('update', { skipLocked: true }),
        );
  const rows = await deps.db
    .update(systemEmails)
    .set({ status: 'sending', attempts: sql`${systemEmails.attempts} + 1`, ...claimedBy(deps.claims.claimant) })
    .where(chosen)
    .returning();
  deps.claims.hold(
    systemEmails,
    rows.map((row) => row.id),
  );
  return rows;
}

type SystemEmailRow = typeof systemEmails.$inferSelect;
type Delivery = 'sent' | 'retry' | 'failed' | 'skipped';

/**
 * One attempt through the delivery function of customers' mail, as an outcome: a message that
 * cannot even be built or signed is tried again later like a deferral (the key may come back),
 * and gives up with the attempts like one.
 */
async function attempt(deps: Deps, row: SystemEmailRow): Promise<Pick<DeliveryOutcome, 'outcome' | 'response'>> {
  try {
    const message = systemMessage(deps.systemSender, row, { encryptionKey: deps.encryptionKey });
    return await deps.systemMailer.send(message);
  } catch (error) {
    return { outcome: 'deferred', response: `not sent: ${error instanceof Error ? error.message : String(error)}` };
  }
}

async function send(deps: Deps, row: SystemEmailRow): Promise<Delivery> {
  const done = { ...unclaimedBy(systemEmails, deps.claims.id) };
  const { outcome, response } = await attempt(deps, row);
  // delivered → sent; bounced (a permanent refusal) → failed at once; deferred → again later, until the attempts run out.
  const delivery: Exclude<Delivery, 'skipped'> = outcome === 'delivered' ? 'sent' : outcome === 'bounced' || row.attempts >= MAX_ATTEMPTS ? 'failed' : 'retry';
  const nextAttemptAt = new Date(deps.clock.now().getTime() + RETRY_BASE_MS * 2 ** (row.attempts - 1));
  const lastResponse = response.slice(0, 500);
  // Once the message has gone, only recording it is left: held until the database takes it.
  await deps.claims.untilRecorded(() =>
    deps.db
      .update(systemEmails)
      .set(
        delivery === 'sent'
          ? { status: 'sent', sentAt: deps.clock.now(), lastError: null, lastResponse, ...done }
          : { status: delivery === 'failed' ? 'failed' : 'pending', lastError: lastResponse, lastResponse, nextAttemptAt, ...done },
      )
      .where(eq(systemEmails.id, row.id)),
  );
  deps.claims.finished(systemEmails, [row.id]);
  return delivery;
}

export async function deliverSystemEmail(deps: Deps, id: string): Promise<Delivery> {
  const [row] = await claim(deps, { id });
  return row ? send(deps, row) : 'skipped';
}

/** Sends what is due, one at a time; what it does not start (stopping, or a failure) it gives back. */
export async function sweepSystemEmails(deps: Deps): Promise<number> {
  const rows = await claim(deps, { limit: 50 });
  let sent = 0;
  let started = 0;
  try {
    for (const row of rows) {
      if (deps.claims.stopping) break;
      started += 1;
      if ((await send(deps, row)) === 'sent') sent += 1;
    }
  } finally {
    await deps.claims.release(
      systemEmails,
      rows.slice(started).map((row) => row.id),
    );
  }
  return sent;
}
