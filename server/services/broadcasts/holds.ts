import { and, eq, inArray } from 'drizzle-orm';
import { broadcasts, organizations } from '@/db/schema';
import type { Db } from '@/db/client';
import { broadcastHeldEmail, broadcastResumedEmail } from '@/emails/broadcast-held';
import type { Deps } from '../../deps';
import { registerAudienceHold } from '../audiences/holds';
import { setReviewed } from '../organizations/organizations';
import { LIST_SEND_ALLOWANCE } from '../plans/sending-limits';
import { enqueueSystemEmail } from '../system-mail/queue';
import { recordBroadcastEvent } from './events';
import { HOLDING_AUDIENCE, type HoldReason } from '../../vocabulary/broadcast-statuses';
import type { AuditSource } from '../audit/record';
import type { BroadcastRow } from './view';
import { noticeAddressOf } from '../organizations/notice-address';

// An audience a broadcast is about to send to, is sending to or will resume sending to stays.
registerAudienceHold(async (tx, audienceId) => {
  const [held] = await tx
    .select({ name: broadcasts.name, status: broadcasts.status })
    .from(broadcasts)
    .where(and(eq(broadcasts.audienceId, audienceId), inArray(broadcasts.status, [...HOLDING_AUDIENCE])))
    .limit(1);
  return held ? `the broadcast "${held.name}" to it is ${held.status}; cancel it or wait until it is sent` : null;
});

const broadcastUrl = (deps: Pick<Deps, 'config'>, row: BroadcastRow) => `${deps.config.appUrl}/broadcasts/${row.id}`;

async function owner(tx: Db, organizationId: string) {
  const [organization] = await tx.select({ name: organizations.name, ownerEmail: organizations.ownerEmail, notificationEmail: organizations.notificationEmail, reviewed: organizations.reviewed }).from(organizations).where(eq(organizations.id, organizationId));
  return organization ?? null;
}

/**
 * Holds a sending broadcast: for review (until an operator approves the account; the owner is
 * emailed) or until a limit resets at `resumesAt` (the fan-out takes it up again then). In the
 * chunk's transaction, which has just stored what fit.
 */
export async function holdBroadcast(
  tx: Db,
  deps: Pick<Deps, 'clock' | 'config' | 'jobs' | 'metrics'>,
  row: BroadcastRow,
  hold: { reason: HoldReason; resumesAt: Date | null },
): Promise<{ row: BroadcastRow; systemEmailId: string | null }> {
  const [held] = await tx
    .update(broadcasts)
    .set({ status: 'held', heldReason: hold.reason, nextAttemptAt: hold.resumesAt, updatedAt: deps.clock.now() })
    .where(eq(broadcasts.id, row.id))
    .returning();
  await recordBroadcastEvent(tx, deps, held!, 'broadcast.held', hold.resumesAt ? { resumesAt: hold.resumesAt.toISOString() } : {});
  if (hold.reason !== 'review') return { row: held!, systemEmailId: null };
  const organization = await owner(tx, row.organizationId);
  if (!organization) return { row: held!, systemEmailId: null };
  const systemEmailId = await enqueueSystemEmail(tx, deps, {
    organizationId: row.organizationId,
    kind: 'broadcast-held',
    to: noticeAddressOf(organization),
    email: broadcastHeldEmail({ organizationName: organization.name, broadcastName: row.name, handed: held!.queued, allowance: LIST_SEND_ALLOWANCE, broadcastUrl: broadcastUrl(deps, row) }),
  });
  return { row: held!, systemEmailId };
}

/**
 * A held broadcast goes on sending, in the caller's transaction with its row locked. A review
 * hold only once the account is reviewed (the owner is emailed); a limit hold when its reset has
 * come, or at once when a person asks (`force`: the fan-out holds it again if the limit still
 * stands). Null when it stays held.
 */
export async function resumeHeld(tx: Db, deps: Pick<Deps, 'clock' | 'config' | 'jobs' | 'metrics'>, row: BroadcastRow, options: { force: boolean }): Promise<BroadcastRow | null> {
  if (row.status !== 'held') return null;
  const now = deps.clock.now();
  const organization = await owner(tx, row.organizationId);
  if (row.heldReason === 'review' && !organization?.reviewed) return null;
  if (row.heldReason !== 'review' && !options.force && (row.nextAttemptAt === null || row.nextAttemptAt > now)) return null;
  const [resumed] = await tx
    .update(broadcasts)
    .set({ status: 'sending', heldReason: null, nextAttemptAt: now, updatedAt: now })
    .where(eq(broadcasts.id, row.id))
    .returning();
  await recordBroadcastEvent(tx, deps, resumed!, 'broadcast.resumed', { heldReason: row.heldReason });
  if (row.heldReason === 'review' && organization) {
    const id = await enqueueSystemEmail(tx, deps, {
      organizationId: row.organizationId,
      kind: 'broadcast-resumed',
      to: noticeAddressOf(organization),
      email: broadcastResumedEmail({ organizationName: organization.name, broadcastName: row.name, broadcastUrl: broadcastUrl(deps, row) }),
    });
    deps.jobs.wake('system-mail', id);
  }
  return resumed!;
}

/**
 * The operator's `org:review --approve|--revoke`. Approving resumes every broadcast held for
 * review exactly where it stopped.
 */
export async function reviewOrganization(deps: Deps, organizationId: string, approved: boolean, by: AuditSource) {
  const organization = await setReviewed(deps, organizationId, approved, by);
  if (!approved) return organization;
  const resumed = await deps.db.transaction(async (tx) => {
    const held = await tx
      .select()
      .from(broadcasts)
      .where(and(eq(broadcasts.organizationId, organizationId), eq(broadcasts.status, 'held'), eq(broadcasts.heldReason, 'review')))
      .for('update');
    const ids: string[] = [];
    for (const row of held) if (await resumeHeld(tx, deps, row, { force: false })) ids.push(row.id);
    return ids;
  });
  for (const id of resumed) deps.jobs.wake('broadcast-fanout', id, { organizationId });
  return organization;
}
