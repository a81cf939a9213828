import { and, eq, isNull, sql } from 'drizzle-orm';
import { broadcasts, emails } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { AppError, conflict } from '../../errors';
import { scheduleTime } from '../emails/schedule-time';
import type { Principal } from '../shared/principal';
import { recordBroadcastChange } from './audit';
import { ownBroadcast } from './own';
import { recordBroadcastEvent } from './events';
import { resumeHeld } from './holds';
import { sendRefusal, startSending } from './start';
import { CANCELLABLE, EDITABLE } from '../../vocabulary/broadcast-statuses';
import { broadcastView, type BroadcastRow, type BroadcastView } from './view';

/**
 * Schedules a draft or scheduled broadcast for `at` (in the future, within the emails' bound),
 * after the same refusals as a send, in the caller's transaction with the row locked.
 */
export async function scheduleInTransaction(tx: Db, deps: Deps, principal: Principal, row: BroadcastRow, at: Date): Promise<BroadcastRow> {
  const scheduledAt = scheduleTime(deps, at);
  const refusal = await sendRefusal(tx, deps, row);
  if (refusal) throw refusal;
  const [scheduled] = await tx
    .update(broadcasts)
    .set({ status: 'scheduled', scheduledAt, nextAttemptAt: scheduledAt, updatedAt: deps.clock.now() })
    .where(eq(broadcasts.id, row.id))
    .returning();
  await recordBroadcastEvent(tx, deps, scheduled!, 'broadcast.scheduled');
  return scheduled!;
}

/** A scheduled broadcast back to draft (`scheduled_at: null`); a draft stays as it is. */
export async function unschedule(tx: Db, deps: Pick<Deps, 'clock'>, row: BroadcastRow): Promise<BroadcastRow> {
  if (row.status !== 'scheduled') return row;
  const [draft] = await tx
    .update(broadcasts)
    .set({ status: 'draft', scheduledAt: null, nextAttemptAt: null, updatedAt: deps.clock.now() })
    .where(eq(broadcasts.id, row.id))
    .returning();
  return draft!;
}

/**
 * `POST /broadcasts/{id}/send`: a draft or scheduled broadcast is sent now or scheduled for
 * `scheduledAt`; a held one resumes (a review hold only once the account is reviewed). Anything
 * else is a conflict. The fan-out is woken once the change is committed.
 */
export async function sendBroadcast(deps: Deps, principal: Principal, id: string, input: { scheduledAt?: Date }): Promise<BroadcastView> {
  const row = await deps.db.transaction(async (tx) => {
    const current = await ownBroadcast(tx, principal, id, true);
    if (current.status === 'held') {
      const refusal = await sendRefusal(tx, deps, current);
      if (refusal) throw refusal;
      const resumed = await resumeHeld(tx, deps, current, { force: true });
      if (!resumed) throw new AppError('LIST_SEND_HELD', 'The broadcast is held for review: it resumes by itself once the account is reviewed');
      await recordBroadcastChange(tx, deps, principal, resumed, 'broadcast.resumed', { heldReason: current.heldReason });
      return resumed;
    }
    if (!EDITABLE.includes(current.status)) throw conflict(`The broadcast is ${current.status}: only a draft, scheduled or held broadcast can be sent`);
    if (input.scheduledAt) {
      const scheduled = await scheduleInTransaction(tx, deps, principal, current, input.scheduledAt);
      await recordBroadcastChange(tx, deps, principal, scheduled, 'broadcast.scheduled', { scheduledAt: scheduled.scheduledAt?.toISOString() ?? null });
      return scheduled;
    }
    const refusal = await sendRefusal(tx, deps, current);
    if (refusal) throw refusal;
    const sending = await startSending(tx, deps, current);
    await recordBroadcastChange(tx, deps, principal, sending, 'broadcast.sent', { audienceId: sending.audienceId });
    return sending;
  });
  deps.jobs.wake('broadcast-fanout', row.id, { organizationId: row.organizationId });
  return broadcastView(row);
}

/**
 * `POST /broadcasts/{id}/cancel`: a scheduled, sending or held broadcast stops. Under the row
 * lock the fan-out also takes for each chunk, so no chunk is stored after it; its queued emails
 * that delivery has not claimed are cancelled with it.
 */
export async function cancelBroadcast(deps: Deps, principal: Principal, id: string): Promise<BroadcastView> {
  const row = await deps.db.transaction(async (tx) => {
    const current = await ownBroadcast(tx, principal, id, true);
    if (!CANCELLABLE.includes(current.status)) throw conflict(`The broadcast is ${current.status}: only a scheduled, sending or held broadcast can be cancelled`);
    const now = deps.clock.now();
    const withdrawn = await tx
      .update(emails)
      .set({ status: 'canceled', nextAttemptAt: null, updatedAt: now })
      .where(and(eq(emails.broadcastId, current.id), eq(emails.status, 'queued'), isNull(emails.claimedBy)))
      .returning({ id: emails.id });
    const [cancelled] = await tx
      .update(broadcasts)
      .set({ status: 'cancelled', cancelledAt: now, nextAttemptAt: null, heldReason: null, canceled: sql`${broadcasts.canceled} + ${withdrawn.length}`, updatedAt: now })
      .where(eq(broadcasts.id, current.id))
      .returning();
    await recordBroadcastEvent(tx, deps, cancelled!, 'broadcast.cancelled');
    await recordBroadcastChange(tx, deps, principal, cancelled!, 'broadcast.cancelled', { from: current.status, emailsWithdrawn: withdrawn.length });
    return cancelled!;
  });
  return broadcastView(row);
}
