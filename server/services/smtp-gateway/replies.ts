import { clientErrorOf, type ErrorCode } from '../../errors';

/** An SMTP reply: the basic code, the enhanced status code (RFC 3463) and the text after them. */
export interface SmtpReply {
  code: number;
  enhanced: string;
  text: string;
}

/**
 * The reply to each refusal of the send service (docs/smtp-gateway.md has the table and why).
 * 4xx where waiting changes the answer (the rate window, tomorrow's ceiling, a paused service, an
 * outage): a queueing client tries again by itself. 5xx where only a change to the account, the
 * domain or the message does: a client that queued it would retry for days to no purpose.
 */
const REPLIES: Record<ErrorCode, [number, string]> = {
  VALIDATION_ERROR: [550, '5.6.0'],
  UNAUTHORIZED: [535, '5.7.8'],
  FORBIDDEN: [550, '5.7.1'],
  ACCOUNT_RESTRICTED: [550, '5.7.1'],
  DOMAIN_NOT_VERIFIED: [550, '5.7.1'],
  ALL_SUPPRESSED: [550, '5.7.1'],
  RECIPIENT_DOMAIN_UNDELIVERABLE: [550, '5.1.2'],
  SENDING_SUSPENDED: [550, '5.7.1'],
  SERVICE_PAUSED: [451, '4.7.1'],
  SENDER_NOT_PERMITTED: [550, '5.7.1'],
  LIST_SEND_HELD: [550, '5.7.1'],
  PLAN_LIMIT_EXCEEDED: [550, '5.7.1'],
  NOT_FOUND: [550, '5.7.1'],
  METHOD_NOT_ALLOWED: [550, '5.7.1'],
  CONFLICT: [451, '4.3.0'],
  ATTACHMENT_EXPIRED: [550, '5.7.1'],
  PAYLOAD_TOO_LARGE: [552, '5.3.4'],
  UNSUPPORTED_MEDIA_TYPE: [550, '5.6.0'],
  RATE_LIMITED: [451, '4.7.1'],
  DAILY_LIMIT_EXCEEDED: [451, '4.7.1'],
  MONTHLY_LIMIT_EXCEEDED: [550, '5.7.1'],
  INTERNAL_ERROR: [451, '4.3.0'],
  SERVICE_UNAVAILABLE: [451, '4.3.0'],
  // The HTTP listener's own refusals: the send service never throws them.
  REQUEST_TIMEOUT: [451, '4.4.2'],
  URI_TOO_LONG: [500, '5.5.2'],
  HEADERS_TOO_LARGE: [500, '5.5.2'],
  // The dashboard's own refusal of a person: the gateway's keys never meet it.
  TWO_FACTOR_REQUIRED: [550, '5.7.1'],
};

/** One line of reply text: SMTP replies are 7-bit lines, and a long one is cut rather than wrapped. */
const oneLine = (text: string) => text.replace(/[^\x20-\x7e]+/g, ' ').slice(0, 400);

/** The reply for what the send service threw; null for a fault of ours (the caller logs it, the client gets 451). */
export function replyForError(error: unknown): SmtpReply | null {
  const known = clientErrorOf(error);
  if (!known) return null;
  const [code, enhanced] = REPLIES[known.appCode];
  return { code, enhanced, text: `${known.appCode}: ${oneLine(known.message)}` };
}

/** The reply when something of ours failed: temporary, so the client's queue keeps the message. */
export const INTERNAL_FAILURE: SmtpReply = { code: 451, enhanced: '4.3.0', text: 'INTERNAL_ERROR: Temporary failure, try again later' };

/** A reply as smtp-server takes it from a callback: an Error with `responseCode`. */
export function replyError(reply: SmtpReply): Error & { responseCode: number } {
  return Object.assign(new Error(`${reply.enhanced} ${reply.text}`), { responseCode: reply.code });
}
