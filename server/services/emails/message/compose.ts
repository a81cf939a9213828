import { asc, eq } from 'drizzle-orm';
import { emailAttachments } from '@/db/schema';
import type { Deps } from '../../../deps';
import { completeBody } from '../../../mail/body';
import { buildMessage, type OutgoingMessage } from '../../../mail/message';
import { verpKeyFrom } from '../../../mail/verp';
import { sendingDomainOf } from '../../domains/signing';
import { rewriteForTracking } from '../../tracking/rewrite';
import type { EmailRow } from '../pipeline/types';

/** What an email's message is built from: its row, the DKIM key to sign with, whether to read attachments. */
export interface ComposeInput {
  row: EmailRow;
  /** The domain's active DKIM key (null once the domain is gone; unused for the sandbox). */
  signingKeyId: string | null;
  hasAttachments: boolean;
  /** The Date header: the first build's, so every later build gives the same bytes. */
  date: Date;
}

export interface ComposedMessage {
  message: OutgoingMessage;
  /** The original URLs of the rewritten links, by click index; null when nothing is tracked. */
  trackedLinks: string[] | null;
  /** Attachments listed but no longer kept (past their 30 days): not in the message. */
  expiredAttachments: string[];
}

/**
 * One email's message, as delivery sends it and as the dashboard's raw source shows it: the body
 * completed (a whole HTML document, a text part derived when none was given), links and the open
 * pixel rewritten for tracking, the attachments still kept, signed for its domain (or the
 * sandbox). Deterministic: the same row, key and date give the same bytes, so a retry carries
 * the same signature and links, and the source shown is the one sent. Null once the sending
 * domain is gone.
 */
export async function composeMessage(deps: Pick<Deps, 'db' | 'config' | 'encryptionKey' | 'sandbox'>, input: ComposeInput): Promise<ComposedMessage | null> {
  const { row } = input;
  const sending = await sendingDomainOf(deps, { domainId: row.domainId, signingKeyId: input.signingKeyId });
  if (!sending) return null;
  const attachments = input.hasAttachments ? await deps.db.select().from(emailAttachments).where(eq(emailAttachments.emailId, row.id)).orderBy(asc(emailAttachments.id)) : [];
  // Every message, whatever sent it (API, template, broadcast, SMTP relay), passes here: a whole
  // HTML document and a text part (derived from the untracked HTML when none was given).
  const body = completeBody({ subject: row.subject, html: row.html, text: row.text });
  const tracked =
    body.html && (row.trackOpens || row.trackClicks)
      ? await rewriteForTracking(body.html, { emailId: row.id, appUrl: deps.config.appUrl, key: deps.encryptionKey, opens: row.trackOpens, clicks: row.trackClicks })
      : null;
  const message = buildMessage({
    emailId: row.id,
    domain: sending,
    from: row.from,
    to: row.to,
    cc: row.cc,
    bcc: row.bcc,
    replyTo: row.replyTo,
    subject: row.subject,
    html: tracked?.html ?? body.html,
    text: body.text,
    headers: row.headers,
    attachments: attachments.filter((a) => a.content).map((a) => ({ filename: a.filename, content: a.content!, contentType: a.contentType, contentId: a.contentId ?? undefined })),
    feedback: feedbackOf(row),
    date: input.date,
    verpKey: verpKeyFrom(deps.encryptionKey),
  });
  return { message, trackedLinks: tracked?.links ?? null, expiredAttachments: attachments.filter((a) => !a.content).map((a) => a.filename) };
}

/**
 * Gmail's Feedback-ID stream: a broadcast's copies are its campaign; other list mail (declared
 * `Precedence: bulk`, as the re-engagement emails before sunset are) is the `list` campaign of the
 * broadcast stream, so its complaints are never counted against transactional mail.
 */
function feedbackOf(row: { organizationId: string; broadcastId: string | null; headers: Record<string, string> }): { organizationId: string; stream: 'transactional' | 'broadcast'; campaignId?: string } {
  if (row.broadcastId) return { organizationId: row.organizationId, stream: 'broadcast', campaignId: row.broadcastId };
  const bulk = Object.entries(row.headers).some(([name, value]) => name.toLowerCase() === 'precedence' && value.trim().toLowerCase() === 'bulk');
  return bulk ? { organizationId: row.organizationId, stream: 'broadcast', campaignId: 'list' } : { organizationId: row.organizationId, stream: 'transactional' };
}
