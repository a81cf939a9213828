import { and, eq, isNull, ne, or } from 'drizzle-orm';
import { organizations, usageCounters } from '@/db/schema';
import { overageEnteredEmail } from '@/emails/overage-entered';
import type { Deps } from '../../deps';
import type { Db } from '@/db/client';
import type { RenderedEmail } from '@/emails/layout';
import type { SendingLimits } from './sending-limits';
import { noticeAddressOf } from '../organizations/notice-address';

/** Queues one of our own messages in the transaction: handed in by the send that crossed the quota (its admit door), which this module sits below. */
export type QueueSystemMail = (tx: Db, message: { organizationId: string; kind: string; to: string; email: RenderedEmail }) => Promise<string>;

/**
 * Tells the owner, once per month, that the organization has entered metered overage. The
 * conditional update is the "once": of concurrent senders that all crossed the quota, one wins.
 */
export async function noticeOverageEntered(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'jobs'>, organizationId: string, limits: SendingLimits, queue: QueueSystemMail): Promise<void> {
  const emailId = await deps.db.transaction(async (tx) => {
    const [marked] = await tx
      .update(usageCounters)
      .set({ overageNotifiedMonth: limits.month })
      .where(and(eq(usageCounters.organizationId, organizationId), or(isNull(usageCounters.overageNotifiedMonth), ne(usageCounters.overageNotifiedMonth, limits.month))))
      .returning({ organizationId: usageCounters.organizationId });
    if (!marked) return null;
    const [organization] = await tx.select({ name: organizations.name, ownerEmail: organizations.ownerEmail, notificationEmail: organizations.notificationEmail }).from(organizations).where(eq(organizations.id, organizationId));
    if (!organization) return null;
    return queue(tx, {
      organizationId,
      kind: 'overage-entered',
      to: noticeAddressOf(organization),
      email: overageEnteredEmail({
        organizationName: organization.name,
        quota: limits.quota,
        monthLimit: limits.monthLimit,
        rateEurCents: limits.plan.overagePer1000EurCents ?? 0,
        billingUrl: `${deps.config.appUrl}/billing`,
      }),
    });
  });
  if (emailId) deps.jobs.wake('system-mail', emailId);
}
