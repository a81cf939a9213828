import type { AddressObject, EmailAddress, ParsedMail } from 'mailparser';
import { AppError, validationError } from '../../errors';
import type { AttachmentInput, EmailRequest, SendEmailInput } from '../emails/accept/input';
import { ALLOWED_HEADER, EMAIL_LIMITS } from '../emails/accept/limits';
import { AddressError, parseMailbox } from '../shared/addresses';

/** The SMTP transaction around a message: who the client said it is from and to (RFC 5321). */
export interface Envelope {
  /** The MAIL FROM address; empty for the null sender `<>`. */
  mailFrom: string;
  rcptTo: string[];
}

/** Headers of the message that become fields of the send, not custom headers. */
const TAGS_HEADER = 'x-tags';
const IDEMPOTENCY_HEADER = 'idempotency-key';
const TAG_PART = /^[A-Za-z0-9_-]+$/;
const NO_BREAKS = /^[^\r\n\0]*$/;

const mailboxesOf = (field: AddressObject | AddressObject[] | undefined): EmailAddress[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) => object.value.flatMap((entry) => (entry.group ? entry.group : [entry])));

/** RFC 5322 specials: a display name holding one is quoted, so that it parses back as it was. */
const SPECIALS = /[()<>[\]:;@\\,"]/;

/** `Name <address>`, the name quoted only when it must be (as a person would write it in the API). */
function formatMailbox(entry: EmailAddress): string {
  const address = entry.address ?? '';
  const name = entry.name.replace(/[\r\n\0]/g, ' ').trim();
  if (!name) return address;
  return SPECIALS.test(name) ? `"${name.replace(/["\\]/g, '\\$&')}" <${address}>` : `${name} <${address}>`;
}

function checkedMailbox(value: string, field: string): string {
  try {
    parseMailbox(value);
    return value;
  } catch (error) {
    throw validationError(`${field}: ${error instanceof AddressError ? error.message : 'not a valid email address'}`);
  }
}

const addressKey = (address: string) => {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, at)}@${address.slice(at + 1).toLowerCase()}`.toLowerCase();
};

/**
 * Who gets the message: the envelope decides (RFC 5321), the headers only say how each is shown.
 * To and Cc are the header's addresses that are also envelope recipients, with their display
 * names; every other envelope recipient is a Bcc. A header address with no envelope recipient is
 * not sent to (the client chose not to), and so is not shown either.
 */
function recipientsOf(parsed: ParsedMail, envelope: Envelope): { to: string[]; cc: string[]; bcc: string[] } {
  const pending = new Map(envelope.rcptTo.map((address) => [addressKey(address), address]));
  const take = (entries: EmailAddress[]) =>
    entries.flatMap((entry) => {
      const key = entry.address ? addressKey(entry.address) : null;
      if (!key || !pending.has(key)) return [];
      pending.delete(key);
      return [formatMailbox(entry)];
    });
  const to = take(mailboxesOf(parsed.to));
  const cc = take(mailboxesOf(parsed.cc));
  const bcc = [...pending.values()];
  if (to.length === 0) {
    throw validationError('The To header names none of the envelope recipients: a message needs at least one To recipient (Bcc-only messages are not relayed)');
  }
  return {
    to: to.map((value) => checkedMailbox(value, 'To')),
    cc: cc.map((value) => checkedMailbox(value, 'Cc')),
    bcc: bcc.map((value) => checkedMailbox(value, 'RCPT TO')),
  };
}

/** `X-Tags: name=value, other=value`: the message's tags, as the API's `tags`. */
function tagsOf(value: string | undefined): Array<{ name: string; value: string }> {
  if (value === undefined) return [];
  const tags = value
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const [name = '', tagValue = '', ...rest] = pair.split('=').map((part) => part.trim());
      const valid = rest.length === 0 && [name, tagValue].every((part) => part.length > 0 && part.length <= EMAIL_LIMITS.tagChars && TAG_PART.test(part));
      if (!valid) throw validationError(`X-Tags: "${pair}" is not name=value with ASCII letters, digits, _ and - only`);
      return { name, value: tagValue };
    });
  if (tags.length > EMAIL_LIMITS.tags) throw validationError(`X-Tags: at most ${EMAIL_LIMITS.tags} tags`);
  return tags;
}

/** A header's value as the client wrote it: unfolded, without the name. */
const rawValue = (line: string) => line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]/g, ' ').trim();

/**
 * The message's own headers that a sender may set through the API (X-*, list headers, threading),
 * as written. Mail clients add X- headers of their own (X-Mailer, X-Priority, ...): the first
 * EMAIL_LIMITS.headers are kept and an over-long one is dropped, rather than refusing the message.
 */
function customHeadersOf(parsed: ParsedMail): { headers: Record<string, string>; tags: string | undefined; idempotencyKey: string | undefined } {
  const headers: Record<string, string> = {};
  let tags: string | undefined;
  let idempotencyKey: string | undefined;
  for (const { key, line } of parsed.headerLines) {
    const value = rawValue(line);
    const name = line.slice(0, line.indexOf(':')).trim();
    if (key === TAGS_HEADER) tags = tags === undefined ? value : `${tags},${value}`;
    else if (key === IDEMPOTENCY_HEADER) idempotencyKey = value;
    else if (ALLOWED_HEADER.test(name) && Object.keys(headers).length < EMAIL_LIMITS.headers && value.length <= EMAIL_LIMITS.headerValueChars && NO_BREAKS.test(value)) {
      headers[name] = value;
    }
  }
  return { headers, tags, idempotencyKey };
}

function attachmentsOf(parsed: ParsedMail): AttachmentInput[] {
  const attachments = parsed.attachments.map((part, index) => ({
    filename: (part.filename ?? `attachment-${index + 1}`).replace(/[\r\n\0]/g, ' ').slice(0, 255),
    content: part.content,
    contentType: part.contentType || 'application/octet-stream',
    // An inline part of the HTML (multipart/related, or disposition inline) keeps its Content-ID.
    contentId: part.cid && (part.related || part.contentDisposition === 'inline') ? part.cid : undefined,
  }));
  if (attachments.length > EMAIL_LIMITS.attachments) throw new AppError('PAYLOAD_TOO_LARGE', `At most ${EMAIL_LIMITS.attachments} attachments`);
  const total = attachments.reduce((sum, attachment) => sum + attachment.content.length, 0);
  if (total > EMAIL_LIMITS.attachmentBytes) throw new AppError('PAYLOAD_TOO_LARGE', `Attachments may be at most ${EMAIL_LIMITS.attachmentBytes} bytes together`);
  return attachments;
}

/**
 * A relayed message as the send service takes it, with the API's rules: one From, a subject, a
 * text or HTML body within the API's bounds, at most EMAIL_LIMITS.recipients recipients.
 */
export function sendRequestOf(parsed: ParsedMail, envelope: Envelope): EmailRequest<SendEmailInput> {
  const senders = mailboxesOf(parsed.from);
  if (senders.length !== 1 || !senders[0]!.address) throw validationError('The message needs exactly one From address');
  const from = checkedMailbox(formatMailbox(senders[0]!), 'From');
  const subject = (parsed.subject ?? '').replace(/[\r\n\0]+/g, ' ').trim();
  if (!subject) throw validationError('The message needs a Subject');
  if (subject.length > EMAIL_LIMITS.subjectChars) throw validationError(`Subject: at most ${EMAIL_LIMITS.subjectChars} characters`);
  const html = typeof parsed.html === 'string' ? parsed.html : undefined;
  const text = parsed.text;
  if (html === undefined && text === undefined) throw validationError('The message has neither a text nor an HTML body');
  // RFC 5322 forbids NUL in a message; stored text cannot hold one either.
  if (html?.includes('\0') || text?.includes('\0')) throw validationError('The message body contains NUL bytes');
  if (Buffer.byteLength(html ?? '') + Buffer.byteLength(text ?? '') > EMAIL_LIMITS.bodyBytes) {
    throw new AppError('PAYLOAD_TOO_LARGE', `Text and HTML together may be at most ${EMAIL_LIMITS.bodyBytes} bytes`);
  }
  const recipients = recipientsOf(parsed, envelope);
  const { headers, tags, idempotencyKey } = customHeadersOf(parsed);
  if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 255)) throw validationError('Idempotency-Key: must be 1 to 255 characters');
  return {
    from,
    ...recipients,
    replyTo: mailboxesOf(parsed.replyTo)
      .filter((entry) => entry.address)
      .map((entry) => checkedMailbox(formatMailbox(entry), 'Reply-To')),
    subject,
    html,
    text,
    headers,
    tags: tagsOf(tags),
    tracking: {},
    attachments: attachmentsOf(parsed),
    idempotencyKey,
    submittedVia: 'smtp',
  };
}

/** The envelope sender must be on the From address's domain, or the null sender. */
export function checkEnvelopeSender(envelope: Envelope, from: string): void {
  if (!envelope.mailFrom) return;
  let sender;
  try {
    sender = parseMailbox(envelope.mailFrom);
  } catch {
    throw validationError(`MAIL FROM <${envelope.mailFrom}> is not a valid address`);
  }
  const fromDomain = parseMailbox(from).domain;
  if (sender.domain !== fromDomain) {
    throw new AppError('FORBIDDEN', `The envelope sender's domain (${sender.domain}) is not the From domain (${fromDomain}); use an address on the From domain, or <>`);
  }
}
