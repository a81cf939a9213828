import { and, eq } from 'drizzle-orm';
import { emails } from '@/db/schema';
import type { Deps } from '../../deps';
import { conflict } from '../../errors';
import type { Principal } from '../shared/principal';
import { recordEmailEvents } from './events';
import { ownEmail } from './read';
import { scheduleTime } from './schedule-time';

/**
 * Changes a scheduled email's send time. The update only matches while the email is still
 * scheduled, so it cannot race the dispatcher: either it moves the time, or it is a 409.
 */
export async function rescheduleEmail(deps: Deps, principal: Principal, id: string, requestedAt: Date) {
  // Whose email it is first: another organization's id is a 404 whatever the time asked for.
  const row = await ownEmail(deps, principal, id);
  const scheduledAt = scheduleTime(deps, requestedAt)!;
  const updated = await deps.db.transaction(async (tx) => {
    const [changed] = await tx
      .update(emails)
      .set({ scheduledAt, nextAttemptAt: scheduledAt, updatedAt: deps.clock.now() })
      .where(and(eq(emails.id, row.id), eq(emails.status, 'scheduled')))
      .returning();
    if (changed) await recordEmailEvents(tx, deps, changed, [{ type: 'email.scheduled', data: { scheduledAt: scheduledAt.toISOString() } }]);
    return changed;
  });
  if (!updated) throw conflict(`The email is ${row.status === 'scheduled' ? 'being sent' : row.status}, no longer scheduled`);
  deps.jobs.wake('email-dispatch', row.id);
  return { id: row.id, scheduledAt: scheduledAt.toISOString() };
}

/** Cancels a scheduled email, atomically against the dispatcher: cancelled and never sent, or a 409. */
export async function cancelEmail(deps: Deps, principal: Principal, id: string) {
  const row = await ownEmail(deps, principal, id);
  const canceled = await deps.db.transaction(async (tx) => {
    const [changed] = await tx
      .update(emails)
      .set({ status: 'canceled', nextAttemptAt: null, updatedAt: deps.clock.now() })
      .where(and(eq(emails.id, row.id), eq(emails.status, 'scheduled')))
      .returning();
    if (changed) await recordEmailEvents(tx, deps, changed, [{ type: 'email.canceled' }]);
    return changed;
  });
  if (!canceled) throw conflict(`The email is ${row.status === 'scheduled' ? 'being sent' : row.status}, no longer scheduled`);
  return { id: row.id, status: 'canceled' as const };
}
