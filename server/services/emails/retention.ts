import { and, inArray, isNotNull, lt, lte, sql } from 'drizzle-orm';
import { emailAttachments, emails, events, organizations } from '@/db/schema';
import type { Deps } from '../../deps';
import { PLANS } from '../plans/plans';
import { DAY_MS } from '../shared/time';
import { deleteExpiredAuditEvents } from '../audit/retention';
import { eraseDeletedOrganizations } from '../organizations/erase';
import { deleteFormSubmissionsBefore } from '../forms';

/**
 * Retention: an email's record and rendered body go together once the plan's log retention
 * (30 or 90 days) has passed; deleted, not archived. The event log (and the webhook deliveries
 * of its events) follows the same retention, and so do the sign-up forms' submission lists (the
 * consent ledger, the proof, stays). Attachment contents go after 30 days at every
 * plan, while the email still lists them. The audit log goes after its own, longer retention
 * (docs/audit-log.md), in the same sweep, and so do organizations whose deletion's grace period
 * has passed (docs/organization-settings.md).
 */
export async function applyRetention(deps: Pick<Deps, 'db' | 'clock'>): Promise<{ emailsDeleted: number; eventsDeleted: number; formSubmissionsDeleted: number; attachmentsExpired: number; auditEventsDeleted: number; organizationsErased: number }> {
  const now = deps.clock.now();
  let emailsDeleted = 0;
  let eventsDeleted = 0;
  let formSubmissionsDeleted = 0;
  const byRetention = new Map<number, string[]>();
  for (const plan of Object.values(PLANS)) byRetention.set(plan.logRetentionDays, [...(byRetention.get(plan.logRetentionDays) ?? []), plan.id]);
  for (const [days, planIds] of byRetention) {
    const cutoff = new Date(now.getTime() - days * DAY_MS);
    const deleted = await deps.db
      .delete(emails)
      .where(and(lt(emails.createdAt, cutoff), sql`${emails.organizationId} in (select ${organizations.id} from ${organizations} where ${inArray(organizations.plan, planIds)})`))
      .returning({ id: emails.id });
    emailsDeleted += deleted.length;
    const logged = await deps.db
      .delete(events)
      .where(and(lt(events.createdAt, cutoff), sql`${events.organizationId} in (select ${organizations.id} from ${organizations} where ${inArray(organizations.plan, planIds)})`))
      .returning({ id: events.id });
    eventsDeleted += logged.length;
    formSubmissionsDeleted += await deleteFormSubmissionsBefore(deps.db, cutoff, planIds);
  }
  const expired = await deps.db
    .update(emailAttachments)
    .set({ content: null })
    .where(and(isNotNull(emailAttachments.content), lte(emailAttachments.expiresAt, now)))
    .returning({ id: emailAttachments.id });
  const auditEventsDeleted = await deleteExpiredAuditEvents(deps);
  const organizationsErased = await eraseDeletedOrganizations(deps);
  return { emailsDeleted, eventsDeleted, formSubmissionsDeleted, attachmentsExpired: expired.length, auditEventsDeleted, organizationsErased };
}
