import { createHash, type KeyObject } from 'node:crypto';
import type Mail from 'nodemailer/lib/mailer/index.js';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { verpAddress } from './verp';

/**
 * Headers the DKIM signature covers when present: nodemailer's default list (RFC 6376 §5.4) minus
 * the Resent-* and rarely used List-* fields, plus List-Unsubscribe-Post (RFC 8058 requires it to be
 * signed for one-click unsubscribe) and Feedback-ID (so nobody can pin complaints on us).
 */
export const SIGNED_HEADERS = [
  'From', 'Sender', 'Reply-To', 'Subject', 'Date', 'Message-ID', 'To', 'Cc',
  'MIME-Version', 'Content-Type', 'Content-Transfer-Encoding', 'Content-ID', 'Content-Description',
  'In-Reply-To', 'References', 'List-Id', 'List-Unsubscribe', 'List-Unsubscribe-Post', 'Feedback-ID',
].join(':');

// Headers the message builder owns; a custom header of these names would contradict the envelope or the signature.
const RESERVED = new Set([
  'from', 'sender', 'to', 'cc', 'bcc', 'reply-to', 'subject', 'date', 'message-id', 'mime-version',
  'content-type', 'content-transfer-encoding', 'dkim-signature', 'return-path', 'received', 'x-mailer',
]);

export interface SendingDomain {
  /** The domain as registered, e.g. "acme.com": DKIM d=, Message-ID right-hand side. */
  name: string;
  /** The return-path label(s), e.g. "send": bounces come back to `<returnPath>.<name>`. */
  returnPath: string;
  /**
   * A domain without an active key must not send. A parsed KeyObject signs about four times
   * faster than PEM text, which crypto would parse again for every signature.
   */
  dkim: { selector: string; privateKey: KeyObject } | { selector: string; privateKeyPem: string };
}

export interface MessageInput {
  emailId: string;
  domain: SendingDomain;
  /** "Name <addr>" or an object; the address must be on the sending domain (or a subdomain) so DKIM aligns. */
  from: string | { name?: string; address: string };
  to: string[];
  cc?: string[];
  bcc?: string[];
  replyTo?: string[];
  subject: string;
  html?: string;
  text?: string;
  /** Custom headers, validated by the caller; the ones this builder owns are dropped. */
  headers?: Record<string, string>;
  attachments?: Array<{ filename: string; content: Buffer; contentType?: string; contentId?: string }>;
  /** One-click unsubscribe (RFC 2369 / RFC 8058); `oneClick` needs an https `url`. */
  listUnsubscribe?: { url?: string; mailto?: string; oneClick?: boolean };
  /** Gmail's Feedback-ID, so complaint rates can be told apart per organization and campaign. */
  feedback?: { organizationId: string; stream: 'transactional' | 'broadcast'; campaignId?: string };
  /** The Date header; the injectable clock's now, so tests are reproducible. */
  date?: Date;
  /** From `verpKeyFrom(deps.encryptionKey)`. */
  verpKey: Buffer;
}

export interface EnvelopeRecipient {
  /** Position in `envelopeRecipients(to, cc, bcc)`: the index in the VERP address. */
  index: number;
  address: string;
  /** The VERP MAIL FROM of this recipient's SMTP transaction. */
  mailFrom: string;
}

export interface OutgoingMessage {
  emailId: string;
  /** `<emailId@domain>`, as in the Message-ID header. */
  messageId: string;
  /** The nodemailer message, DKIM options included; no bcc and no envelope (each recipient has its own). */
  mail: Mail.Options;
  recipients: EnvelopeRecipient[];
}

/** A bare ASCII `local@domain`: what most entries are, and what the parser would hand back unchanged. */
const PLAIN_ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9.-]+$/;

const addressesIn = (list: string[]): string[] => {
  const into: string[] = [];
  addAddressesOf(list, into);
  return into;
};

/** The addresses of a list's entries, in order (a group or a list in one entry gives several). Loops, not flatMap: this runs for every email accepted. */
function addAddressesOf(list: string[], into: string[]): void {
  for (const entry of list) {
    if (PLAIN_ADDRESS.test(entry)) {
      into.push(entry);
      continue;
    }
    for (const parsed of addressparser(entry, { flatten: true })) if (parsed.address) into.push(parsed.address);
  }
}

/** Lowercases the domain part only: local parts are case-sensitive in principle (RFC 5321 §2.4). */
const normalizeAddress = (address: string) => {
  const at = address.lastIndexOf('@');
  return at < 0 ? address : `${address.slice(0, at)}@${address.slice(at + 1).toLowerCase()}`;
};

/**
 * Every envelope recipient once, in the order to, cc, bcc (first occurrence wins, compared
 * case-insensitively). The VERP index is a position in this list, so the bounce receiver maps a
 * bounce back to an address with the same function over the stored email.
 */
export function envelopeRecipients(to: string[], cc: string[] = [], bcc: string[] = []): string[] {
  const all: string[] = [];
  addAddressesOf(to, all);
  addAddressesOf(cc, all);
  addAddressesOf(bcc, all);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const entry of all) {
    const address = normalizeAddress(entry);
    const key = address.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(address);
  }
  return out;
}

function headersOf(input: MessageInput): Record<string, string> {
  const ours: Record<string, string> = {};
  const unsubscribe = input.listUnsubscribe;
  if (unsubscribe && (unsubscribe.url || unsubscribe.mailto)) {
    const targets = [unsubscribe.url, unsubscribe.mailto && `mailto:${unsubscribe.mailto.replace(/^mailto:/i, '')}`].filter(Boolean);
    ours['List-Unsubscribe'] = targets.map((target) => `<${target}>`).join(', ');
    if (unsubscribe.oneClick && unsubscribe.url?.startsWith('https:')) ours['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  if (input.feedback) {
    const { campaignId, organizationId, stream } = input.feedback;
    ours['Feedback-ID'] = `${campaignId ?? stream}:${organizationId}:${stream}:eumail`;
  }
  const taken = new Set(Object.keys(ours).map((name) => name.toLowerCase()));
  const custom = Object.entries(input.headers ?? {}).filter(([name]) => !RESERVED.has(name.toLowerCase()) && !taken.has(name.toLowerCase()));
  return { ...Object.fromEntries(custom), ...ours };
}

/** One email as a DKIM-signed nodemailer message plus the per-recipient VERP envelopes. */
export function buildMessage(input: MessageInput): OutgoingMessage {
  const domain = input.domain.name.toLowerCase();
  const fromAddress = typeof input.from === 'string' ? addressesIn([input.from])[0] : input.from.address;
  const fromDomain = fromAddress?.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase();
  if (!fromDomain || (fromDomain !== domain && !fromDomain.endsWith(`.${domain}`))) {
    throw new Error(`the From address ${fromAddress ?? '(none)'} is not on the sending domain ${domain}`);
  }
  const returnPathDomain = `${input.domain.returnPath}.${domain}`;
  const messageId = `<${input.emailId}@${domain}>`;
  const recipients = envelopeRecipients(input.to, input.cc, input.bcc).map((address, index) => ({
    index,
    address,
    mailFrom: verpAddress(input.verpKey, input.emailId, index, returnPathDomain),
  }));
  if (recipients.length === 0) throw new Error('an email needs at least one recipient');

  // `baseBoundary` is a composer option nodemailer's typings leave out.
  const mail: Mail.Options & { baseBoundary: string } = {
    from: typeof input.from === 'string' ? input.from : { name: input.from.name ?? '', address: input.from.address },
    to: input.to,
    cc: input.cc?.length ? input.cc : undefined,
    // No bcc here: the stream transport that renders the message would write a Bcc header.
    // Bcc recipients are in `recipients`, so they get the mail without appearing in it.
    replyTo: input.replyTo?.length ? input.replyTo : undefined,
    subject: input.subject,
    html: input.html,
    text: input.text,
    headers: headersOf(input),
    attachments: input.attachments?.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType, cid: a.contentId })),
    messageId,
    // The MIME boundaries come from the email's id rather than chance, so building the message again
    // (a retry, the dashboard's raw source) gives the same bytes and signature. The id is made
    // after the content is accepted, so no content can be written to contain its boundary.
    baseBoundary: createHash('sha256').update(input.emailId).digest('hex').slice(0, 16),
    date: input.date ?? new Date(),
    // Content is given inline; never let a stray `path`/`href` make nodemailer read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
    dkim: {
      domainName: domain,
      keySelector: input.domain.dkim.selector,
      // The signer hands the key to crypto's sign() untouched, which takes a KeyObject; nodemailer's typings only say string.
      privateKey: ('privateKey' in input.domain.dkim ? input.domain.dkim.privateKey : input.domain.dkim.privateKeyPem) as string,
      headerFieldNames: SIGNED_HEADERS,
    },
  };
  return { emailId: input.emailId, messageId, mail, recipients };
}
