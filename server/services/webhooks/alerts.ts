import { and, desc, eq, isNull, lte } from 'drizzle-orm';
import { organizations, webhookDeliveries, webhooks } from '@/db/schema';
import { webhookFailingEmail } from '@/emails/webhook-failing';
import type { Deps } from '../../deps';
import { DAY_MS } from '../shared/time';
import { enqueueSystemEmail } from '../system-mail/queue';
import type { FailingWebhook } from './record';
import { noticeAddressOf } from '../organizations/notice-address';

/**
 * Tells the owner, once per failing streak, that an endpoint has failed every delivery for 24
 * hours: it is never disabled silently. The conditional update makes the message go once even
 * when several workers find the streak at the same time.
 */
export async function alertOwnerOfFailingWebhook(deps: Deps, failing: FailingWebhook): Promise<boolean> {
  const now = deps.clock.now();
  const emailId = await deps.db.transaction(async (tx) => {
    const [webhook] = await tx
      .update(webhooks)
      .set({ failureNotifiedAt: now })
      .where(and(eq(webhooks.id, failing.id), isNull(webhooks.failureNotifiedAt), lte(webhooks.failingSince, new Date(now.getTime() - DAY_MS))))
      .returning();
    if (!webhook) return null;
    const [organization] = await tx.select().from(organizations).where(eq(organizations.id, webhook.organizationId));
    const [last] = await tx
      .select({ error: webhookDeliveries.lastError })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhook.id))
      .orderBy(desc(webhookDeliveries.updatedAt))
      .limit(1);
    return enqueueSystemEmail(tx, deps, {
      organizationId: webhook.organizationId,
      kind: 'webhook_failing',
      to: noticeAddressOf(organization!),
      email: webhookFailingEmail({
        organizationName: organization!.name,
        url: webhook.url,
        failingSince: webhook.failingSince!,
        lastError: last?.error ?? null,
        dashboardUrl: `${deps.config.appUrl}/webhooks/${webhook.id}`,
      }),
    });
  });
  if (emailId) deps.jobs.wake('system-mail', emailId);
  return emailId !== null;
}
