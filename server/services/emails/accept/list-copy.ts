import { AppError } from '../../../errors';
import type { Mailbox } from '../../shared/addresses';
import type { Principal } from '../../shared/principal';
import type { RenderedTemplate } from '../../templates/render';
import type { SendPermit } from './checks';
import { draftEmail } from './draft';
import type { EmailInput } from './input';
import type { EmailDraft } from './store';

/** The headers of one-click unsubscribe (RFC 2369, RFC 8058) and bulk mail; the DKIM signature covers them. */
export function listHeaders(links: { url: string; mailto: string }): Record<string, string> {
  return {
    'List-Unsubscribe': `<${links.url}>, <mailto:${links.mailto}>`,
    // RFC 8058 asks for an https URL; on a plain-http APP_URL (development) the one-click POST is not offered.
    ...(links.url.startsWith('https:') ? { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}),
    Precedence: 'bulk',
  };
}

/** One contact's copy of list mail, rendered before the transaction that stores it. */
export interface ListCopy {
  emailId: string;
  from: string;
  replyTo: string[];
  to: string;
  /** The subject stored when the copy could not be rendered. */
  subjectAsWritten: string;
  rendered: RenderedTemplate | AppError;
  links: { url: string; mailto: string };
  tags?: Array<{ name: string; value: string }>;
}

/**
 * The email of a contact's copy of list mail (a broadcast's, a re-engagement email): the content,
 * the list headers, its own id and unsubscribe links. A copy that could not be rendered for this
 * contact (its values hit a render bound) is an email recorded as failed, with `why` and the reason
 * in its history and an `email.failed` event: that contact fails, not the whole send.
 */
export function draftListCopy(
  copy: ListCopy,
  on: { principal: Principal; sender: Mailbox; domain: SendPermit['domain']; now: Date },
  why: string,
): { sent: EmailDraft } | { failed: EmailDraft } {
  const { emailId, links, rendered } = copy;
  const input: EmailInput = {
    from: copy.from,
    to: [copy.to],
    cc: [],
    bcc: [],
    replyTo: copy.replyTo,
    subject: rendered instanceof AppError ? copy.subjectAsWritten.slice(0, 998) : rendered.subject,
    html: rendered instanceof AppError ? undefined : (rendered.html ?? undefined),
    text: rendered instanceof AppError ? undefined : (rendered.text ?? undefined),
    headers: listHeaders(links),
    tags: copy.tags ?? [],
    tracking: {},
  };
  const permit: SendPermit = { sender: on.sender, domain: on.domain, deliverable: [copy.to], suppressed: [] };
  const draft = draftEmail(on.principal, input, permit, { now: on.now, scheduledAt: null, id: emailId });
  if (!(rendered instanceof AppError)) return { sent: draft };
  const reason = `${why}: ${rendered.message}`;
  Object.assign(draft.row, { status: 'failed' as const, nextAttemptAt: null });
  draft.recipients = [{ address: copy.to, status: 'failed', response: reason }];
  draft.events = [{ type: 'email.failed', recipient: copy.to, data: { reason } }];
  return { failed: draft };
}
