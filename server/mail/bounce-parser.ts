import { simpleParser, type Attachment, type SimpleParserOptions } from 'mailparser';

/**
 * Reads what comes back to a VERP address: a delivery status notification (RFC 3464) or an abuse
 * feedback report (RFC 5965). Anything else (auto-replies, challenge-response mail, plain text
 * bounces without a machine-readable part) is not a report and gives null: the bounce receiver
 * accepts and drops it, so a vacation reply never suppresses anybody.
 *
 * The VERP address the report arrived at decides which email and recipient it is about; what the
 * report itself names (`reportedRecipient`) is kept for the record only.
 */

type ReportKind = 'hard' | 'soft' | 'complaint';

interface ParsedReport {
  /** hard: permanent failure (5.x.x); soft: delayed or failed temporarily (4.x.x); complaint: an ARF abuse report. */
  kind: ReportKind;
  /** The remote server's words: the DSN's Diagnostic-Code without its type (`smtp;`), unfolded. */
  diagnostic?: string;
  /** The DSN's enhanced status code (RFC 3463), e.g. `5.1.1`. */
  status?: string;
  /** The recipient the report names (Final-Recipient / Original-Rcpt-To): informational. */
  reportedRecipient?: string;
  /** ARF Feedback-Type, lowercase (abuse, fraud, virus, other). */
  feedbackType?: string;
  /** The report's own Message-ID: the same report delivered twice is recognised by it. */
  reportId?: string;
}

const MAX_DIAGNOSTIC = 1000;

const DELIVERY_STATUS_TYPES = new Set(['message/delivery-status', 'message/global-delivery-status']);
const FEEDBACK_REPORT_TYPES = new Set(['message/feedback-report']);
/** ARF feedback types that are not complaints: a "not spam" vote and DMARC/SPF failure reports. */
const NOT_COMPLAINTS = new Set(['not-spam', 'auth-failure', 'dkim', 'spf']);

// mailparser folds `message/delivery-status` into the text body unless told to keep it as a part
// (an option its type definitions do not list).
const PARSER_OPTIONS = {
  keepDeliveryStatus: true,
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipImageLinks: true,
  skipTextLinks: true,
} as SimpleParserOptions;

type Fields = Map<string, string>;

/**
 * The header-style blocks of a report body (RFC 3464 §2.1, RFC 5965 §3.1): fields separated by blank
 * lines into groups, continuation lines unfolded, names lowercased. The first occurrence of a field
 * in a block wins.
 */
function reportBlocks(body: string): Fields[] {
  const blocks: Fields[] = [];
  let current: Fields | null = null;
  let lastName: string | null = null;
  for (const line of body.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.trim() === '') {
      current = null;
      lastName = null;
      continue;
    }
    if (/^[ \t]/.test(line)) {
      if (current && lastName) current.set(lastName, `${current.get(lastName)} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!current) {
      current = new Map();
      blocks.push(current);
    }
    if (current.has(name)) {
      lastName = null;
      continue;
    }
    current.set(name, line.slice(colon + 1).trim());
    lastName = name;
  }
  return blocks;
}

const clip = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_DIAGNOSTIC ? `${flat.slice(0, MAX_DIAGNOSTIC - 1)}…` : flat;
};

/** `rfc822; <ada@example.net>` → `ada@example.net`. */
function addressField(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const semicolon = value.indexOf(';');
  const address = (semicolon >= 0 ? value.slice(semicolon + 1) : value).trim().replace(/^<|>$/g, '').trim();
  return address ? clip(address) : undefined;
}

/** `smtp; 550 5.1.1 No such user` → `550 5.1.1 No such user`. */
function diagnosticField(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const text = value.replace(/^[a-z][a-z0-9-]*\s*;\s*/i, '');
  return text ? clip(text) : undefined;
}

function statusField(value: string | undefined): string | undefined {
  return value ? /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(value)?.[1] : undefined;
}

/** One recipient block of a DSN as a report kind: permanent failures are hard, temporary ones soft. */
function recipientKind(fields: Fields): 'hard' | 'soft' | null {
  const action = fields.get('action')?.split(/[\s(;]/)[0]?.toLowerCase();
  const statusClass = statusField(fields.get('status'))?.[0];
  switch (action) {
    case 'failed':
      // A server that gave up after temporary failures (4.x.x, e.g. a full mailbox) says nothing
      // about the address itself: not a reason to suppress it.
      return statusClass === '4' ? 'soft' : 'hard';
    case 'delayed':
      return 'soft';
    case 'delivered':
    case 'relayed':
    case 'expanded':
      return null;
    default:
      if (statusClass === '5') return 'hard';
      if (statusClass === '4') return 'soft';
      return null;
  }
}

function fromDeliveryStatus(body: string): Omit<ParsedReport, 'reportId'> | null {
  const blocks = reportBlocks(body);
  // The first block holds the per-message fields; recipients follow. Some servers write only one
  // block, so any block naming a recipient or an action counts.
  const recipients = blocks.filter((block) => block.has('final-recipient') || block.has('original-recipient') || block.has('action'));
  let best: { kind: 'hard' | 'soft'; fields: Fields } | null = null;
  for (const fields of recipients) {
    const kind = recipientKind(fields);
    if (kind && (!best || (best.kind === 'soft' && kind === 'hard'))) best = { kind, fields };
  }
  if (!best) return null;
  const { kind, fields } = best;
  return {
    kind,
    diagnostic: diagnosticField(fields.get('diagnostic-code')),
    status: statusField(fields.get('status')),
    reportedRecipient: addressField(fields.get('final-recipient') ?? fields.get('original-recipient')),
  };
}

function fromFeedbackReport(body: string): Omit<ParsedReport, 'reportId'> | null {
  const fields = reportBlocks(body)[0];
  if (!fields) return null;
  const feedbackType = fields.get('feedback-type')?.split(/[\s;]/)[0]?.toLowerCase() || 'abuse';
  if (NOT_COMPLAINTS.has(feedbackType)) return null;
  return {
    kind: 'complaint',
    feedbackType,
    reportedRecipient: addressField(fields.get('original-rcpt-to') ?? fields.get('removal-recipient')),
  };
}

const withoutUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/**
 * A DSN or ARF report as `{ kind, ... }`, or null for anything else. Only a top-level
 * `multipart/report` counts; its machine-readable part decides (`message/delivery-status`, or
 * `message/feedback-report`), with the `report-type` parameter breaking a tie. Never throws: a
 * message mailparser cannot read is not a report.
 */
export async function parseReport(raw: Buffer): Promise<ParsedReport | null> {
  let parsed;
  try {
    parsed = await simpleParser(raw, PARSER_OPTIONS);
  } catch {
    return null;
  }
  const contentType = parsed.headers.get('content-type') as { value?: string; params?: Record<string, string> } | undefined;
  if (contentType?.value?.toLowerCase() !== 'multipart/report') return null;
  const reportType = contentType.params?.['report-type']?.toLowerCase();
  const partOf = (types: Set<string>): Attachment | undefined => parsed.attachments.find((part) => types.has(part.contentType.toLowerCase()));
  const dsn = partOf(DELIVERY_STATUS_TYPES);
  const arf = partOf(FEEDBACK_REPORT_TYPES);
  const useArf = arf && (!dsn || reportType === 'feedback-report');
  const report = useArf ? fromFeedbackReport(arf.content.toString('utf8')) : dsn ? fromDeliveryStatus(dsn.content.toString('utf8')) : null;
  if (!report) return null;
  return withoutUndefined({ ...report, reportId: parsed.messageId ? clip(parsed.messageId) : undefined });
}
