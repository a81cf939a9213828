import { and, eq, inArray, isNotNull, lt, lte, sql } from 'drizzle-orm';
import { emailAttachments, emails, organizations } from '@/db/schema';
import type { Deps } from '../deps';
import { AppError, notFound } from '../errors';
import { PLANS } from './plans';
import type { Principal } from './principal';

const DAY_MS = 24 * 3_600_000;

/**
 * Retention: an email's record and rendered body go together once the plan's log retention
 * (30 or 90 days) has passed; deleted, not archived. Attachment contents go after 30 days at
 * every plan, while the email still lists them.
 */
export async function applyRetention(deps: Pick<Deps, 'db' | 'clock'>): Promise<{ emailsDeleted: number; attachmentsExpired: number }> {
  const now = deps.clock.now();
  let emailsDeleted = 0;
  const byRetention = new Map<number, string[]>();
  for (const plan of Object.values(PLANS)) byRetention.set(plan.logRetentionDays, [...(byRetention.get(plan.logRetentionDays) ?? []), plan.id]);
  for (const [days, planIds] of byRetention) {
    const cutoff = new Date(now.getTime() - days * DAY_MS);
    const deleted = await deps.db
      .delete(emails)
      .where(and(lt(emails.createdAt, cutoff), sql`${emails.organizationId} in (select ${organizations.id} from ${organizations} where ${inArray(organizations.plan, planIds)})`))
      .returning({ id: emails.id });
    emailsDeleted += deleted.length;
  }
  const expired = await deps.db
    .update(emailAttachments)
    .set({ content: null })
    .where(and(isNotNull(emailAttachments.content), lte(emailAttachments.expiresAt, now)))
    .returning({ id: emailAttachments.id });
  return { emailsDeleted, attachmentsExpired: expired.length };
}

/** An attachment's file, until its retention ends: then 410 ATTACHMENT_EXPIRED while the email still lists it. */
export async function attachmentContent(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, emailId: string, attachmentId: string) {
  const [row] = await deps.db
    .select({ attachment: emailAttachments })
    .from(emailAttachments)
    .innerJoin(emails, eq(emails.id, emailAttachments.emailId))
    .where(and(eq(emailAttachments.id, attachmentId), eq(emails.id, emailId), eq(emails.organizationId, principal.organizationId), eq(emails.mode, principal.mode)));
  if (!row) throw notFound('Attachment');
  const { attachment } = row;
  if (!attachment.content || attachment.expiresAt <= deps.clock.now()) {
    throw new AppError('ATTACHMENT_EXPIRED', `${attachment.filename} was kept for 30 days and has been deleted`);
  }
  return { filename: attachment.filename, contentType: attachment.contentType, content: attachment.content };
}
