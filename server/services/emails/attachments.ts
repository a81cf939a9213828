import { and, eq } from 'drizzle-orm';
import { emailAttachments, emails } from '@/db/schema';
import type { Deps } from '../../deps';
import { AppError, notFound } from '../../errors';
import type { Principal } from '../shared/principal';
import { DAY_MS } from '../shared/time';

/** How long an attachment's content is kept, at every plan. */
export const ATTACHMENT_RETENTION_MS = 30 * DAY_MS;

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
