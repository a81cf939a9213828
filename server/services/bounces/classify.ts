/**
 * Bounces explained: what a receiving server's refusal (an SMTP reply or a DSN's diagnostic) means
 * and what the sender should do about it, as a class and one or two plain sentences. Pure: the
 * decision rules and the provider texts they know are in docs/bounces.md.
 */

/** Why a message was refused or delayed; `complaint` is a recipient's spam report (ARF), not a refusal. */
export const BOUNCE_CLASSES = [
  'mailbox_unknown',
  'mailbox_full',
  'domain_missing',
  'spam_block',
  'policy',
  'greylisted',
  'rate_limited',
  'message_too_large',
  'tls_required',
  'other',
  'complaint',
] as const;
export type BounceClass = (typeof BOUNCE_CLASSES)[number];
type RefusalClass = Exclude<BounceClass, 'complaint'>;

/** The event the response belongs to: a final refusal, a delay (retried), or a recipient given up on after retries. */
export type BounceKind = 'bounced' | 'delayed' | 'failed';

export interface BounceInput {
  /** The SMTP reply code (550), when known apart from the text. */
  smtpCode?: number | null;
  /** The enhanced status code (RFC 3463), e.g. `5.1.1`, when known apart from the text (a DSN's Status). */
  enhanced?: string | null;
  /** The server's words as stored: an SMTP reply (perhaps after `host [ip]: `) or a DSN's Diagnostic-Code. */
  text: string;
  /** Default `bounced`. */
  kind?: BounceKind;
  /** Whether this bounce put the address on the suppression list (live email); default true for `bounced`. */
  suppressed?: boolean;
}

/** Stored as `data.bounce` of bounce, delay, failure and complaint events. */
export interface BounceExplanation {
  class: BounceClass;
  explanation: string;
}

interface Rule {
  class: RefusalClass;
  pattern: RegExp;
  /** A more precise first sentence than the class's own. */
  meaning?: string;
}

const DMARC_MEANING =
  "The message failed the DMARC check of the From domain: neither SPF nor DKIM passed for a domain aligned with the From address, and the domain's DMARC policy asks receivers to reject such mail.";
const UNREACHABLE_MEANING = "No mail server of the recipient's domain could be reached (the connection was refused or timed out, or the DNS lookup failed).";

/**
 * Phrases that say exactly what happened, checked first, in this order: they win over the enhanced
 * code, which servers often leave generic (Microsoft's 5.5.0 for an unknown mailbox, 5.7.1 for
 * everything from a block list to a DMARC rejection).
 */
const SPECIFIC_TEXTS: Rule[] = [
  { class: 'tls_required', pattern: /\bSTARTTLS\b|\bTLS (is )?required|must (use|issue) (a )?(STARTTLS|TLS)|encryption (is )?required|requires? (a )?secure connection|\b5\.7\.1[01]\b/i },
  { class: 'message_too_large', pattern: /message (size )?(exceeds|is too (large|big))|message too (large|big)|size exceeds|exceeds (the )?(fixed |maximum |message )*(size|limit)|larger than allowed|maximum message size|message length exceeds|too large for this server/i },
  {
    class: 'mailbox_full',
    pattern: /mailbox (is )?full|over ?quota|quota exceeded|exceeded (its|the|their) (storage|quota)|mailbox (size|storage) (limit )?exceeded|exceeded storage allocation|insufficient (mailbox )?quota|user'?s? (mailbox|inbox) is full|OverQuota|disk quota|out of storage|storage (space )?(is )?full/i,
  },
  { class: 'greylisted', pattern: /gr[ea]y-? ?list|postgrey|try again in \d+ (seconds|minutes)|temporarily (rejected|deferred), please try again/i },
  { class: 'policy', pattern: /\bDMARC\b|\b5\.7\.26\b/i, meaning: DMARC_MEANING },
  {
    class: 'domain_missing',
    pattern:
      /null MX|has no MX, A or AAAA record|no MX record|MX host .* has no A or AAAA record|resolves to .* not a public address|domain (name )?(not found|does not exist|doesn'?t exist)|host or domain name not found|host not found|NXDOMAIN|no such domain|unroute?able (address|domain)|domain (is )?(invalid|not valid)/i,
  },
  {
    class: 'mailbox_unknown',
    pattern:
      /does not exist|doesn'?t exist|doesn'?t have an? [\w.-]+ account|user(name)? unknown|unknown (user|recipient|mailbox|local part)|no such (user|mailbox|recipient|account|person)|invalid (recipient|mailbox|address|user)|recipient (not found|unknown|invalid)|user (not found|does not exist)|mailbox (not found|does not exist|unknown)|RecipNotFound|RecipientNotFound|account (has been |is )?(disabled|deactivated|inactive|closed|suspended)|is disabled|no mailbox here|not a deliverable address|address (unknown|not found|does not exist)|recipient address rejected: (access denied|user unknown|undeliverable|no such)|unknown address|not our customer|mailbox (is )?(disabled|inactive)|Benutzer unbekannt|destinataire (invalide|inconnu)/i,
  },
  {
    class: 'rate_limited',
    pattern:
      /unusual rate|rate[- ]limit|receiving mail (at a rate|too quickly)|too many (messages|connections|recipients|emails|mails)|temporarily deferred|\[TSS?0[1-4]\]|server busy|\b4\.7\.500\b|\b4\.7\.650\b|throttl|sending volume|unexpected volume|exceeded (the )?(hourly|daily|sending) (limit|rate)|slow down|try again later from/i,
  },
  {
    class: 'spam_block',
    pattern:
      /spamhaus|spamcop|barracuda|sorbs|uceprotect|surbl|\bRBL\b|DNSBL|block ?list|black ?list|blocked using|listed (at|on|in|by)|\bS31[45]0\b|banned sending IP|poor reputation|bad reputation|IP reputation|sender reputation|reputation of|identified as spam|considered (as )?spam|classified as spam|looks like spam|detected as spam|rejected as spam|likely (spam|unsolicited)|spam (message|content|detected)|content rejected|rejected (due to|because of) (its )?content|\[TSS0[59]\]|\[TS03\]|permanently deferred|\bOFR0\d\d_|high probability of spam|\bspam\b/i,
  },
  {
    class: 'policy',
    pattern:
      /\bSPF\b|\bDKIM\b|unauthenticated|authentication (failed|required|failure)|policy (restrictions|reasons|rejection|violation)|due to (local )?policy|rejected by policy|relay(ing)? (access )?(denied|not permitted)|not (permitted|authorized|allowed) to (relay|send)|sender (address )?rejected|sender domain|reverse DNS|PTR record|\bunauthorized sender\b|access denied/i,
  },
];

/**
 * The enhanced status code (RFC 3463) by its subject.detail, whether permanent or temporary, or by
 * the whole code. 5.1.10 is RFC 7505's null MX, though Microsoft says it of unknown recipients too
 * (with words that say so, which decide first).
 */
const BY_ENHANCED: Record<string, RefusalClass> = {
  '1.1': 'mailbox_unknown', // bad destination mailbox address
  '1.2': 'domain_missing', // bad destination system address
  '1.3': 'mailbox_unknown', // bad destination mailbox address syntax
  '1.6': 'mailbox_unknown', // destination mailbox has moved
  '1.10': 'domain_missing', // recipient address has null MX (RFC 7505)
  '5.2.1': 'mailbox_unknown', // mailbox disabled (Gmail's 4.2.1 is a recipient receiving too fast)
  '2.2': 'mailbox_full', // mailbox full
  '2.3': 'message_too_large', // message length exceeds administrative limit
  '3.4': 'message_too_large', // message too big for system
  '4.4': 'domain_missing', // unable to route
  '5.7.1': 'policy', // delivery not authorized, message refused (4.7.1 is mostly greylisting or a hold)
  '7.10': 'tls_required', // encryption needed
  '7.11': 'tls_required', // encryption required for requested authentication mechanism
  '7.23': 'policy', // SPF validation failed
  '7.25': 'policy', // reverse DNS validation failed
  '7.26': 'policy', // multiple authentication checks failed (DMARC)
  '7.27': 'policy', // sender address has null MX
};

/** Phrases too common to decide before the enhanced code has spoken (`mailbox unavailable` is also said of blocks). */
const GENERIC_TEXTS: Rule[] = [
  { class: 'mailbox_unknown', pattern: /mailbox unavailable|recipient (address )?rejected|undeliverable address|address rejected/i },
  { class: 'other', pattern: /ECONNREFUSED|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|ENETUNREACH|timed? ?out|connection (refused|closed|reset|lost)|DNS lookup .* failed|no MX host .* could be tried/i, meaning: UNREACHABLE_MEANING },
  { class: 'greylisted', pattern: /please try again later|try again later/i },
];

const MEANING: Record<RefusalClass, string> = {
  mailbox_unknown: "The address does not exist at the recipient's provider, or its account was closed.",
  mailbox_full: "The recipient's mailbox is full: it is over its storage quota.",
  domain_missing: "The recipient's domain does not exist or publishes no usable mail server, so there is nowhere to deliver to.",
  spam_block: 'The receiving provider refused the message as spam, or because your sending IP address or domain is on a block list.',
  policy: "The receiving server refused the message under its policy, most often because the sender's authentication (SPF, DKIM, DMARC) did not pass or the sender is not allowed.",
  greylisted: 'The receiving server turned away a first delivery from a sender it does not know yet (greylisting), a common anti-spam step.',
  rate_limited: 'The receiving provider is accepting fewer messages from you for now, because of your sending volume or your sender reputation.',
  message_too_large: 'The message, with its attachments, is larger than the receiving server accepts.',
  tls_required: 'The receiving server only accepts mail over an encrypted (TLS) connection, and none could be made.',
  other: 'The receiving server refused or delayed the message for a reason outside the known categories; its response says more.',
};

/** What to do, after a final refusal (or giving up) and while it is still being retried. */
const FIX: Record<RefusalClass, { final: string; temporary: string }> = {
  mailbox_unknown: { final: 'remove it from your list or ask the person for a corrected address.', temporary: 'if it keeps failing, check the address with the person.' },
  mailbox_full: { final: 'the mailbox may be abandoned; ask the person to free space or for another address before sending again.', temporary: 'nothing to do unless it lasts, which often means an abandoned mailbox.' },
  domain_missing: { final: 'check the domain for a typo (gmial.com) or ask the person for a corrected address.', temporary: "if the domain's DNS stays broken the address will fail; check it for a typo." },
  spam_block: {
    final: 'check your sending IP and domain on block lists (Spamhaus), your content and your complaint rate, and request delisting before sending to this provider again.',
    temporary: 'slow down to this provider and check your content, your complaint rate and your block-list status.',
  },
  policy: {
    final: "check that your domain's SPF, DKIM and DMARC records pass (the domain page) and that the From address is on your verified domain.",
    temporary: "check that your domain's SPF, DKIM and DMARC records pass (the domain page) and that the From address is on your verified domain.",
  },
  greylisted: { final: 'the server never accepted a retry; send again later.', temporary: 'nothing to do: a later try normally goes through within minutes.' },
  rate_limited: {
    final: 'spread large sends over time, and check your complaint and bounce rates before sending to this provider again.',
    temporary: 'spread large sends over time, and check your complaint and bounce rates.',
  },
  message_too_large: { final: 'make the message smaller: link to large files instead of attaching them.', temporary: 'make the message smaller: link to large files instead of attaching them.' },
  tls_required: { final: "send again later; if it persists, contact support with the recipient's domain.", temporary: "nothing to do unless it lasts; then contact support with the recipient's domain." },
  other: { final: "read the server's response for the reason; if many recipients at one provider fail alike, contact that provider.", temporary: "nothing to do unless it lasts; the server's response says why." },
};

const ENHANCED = /(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?!\.?\d)/;

/** The enhanced status code given, or the first one in the text (`550-5.1.1 …`, `host [ip]: 452 4.2.2 …`). */
export function enhancedCodeOf(input: Pick<BounceInput, 'enhanced' | 'text'>): string | null {
  const match = ENHANCED.exec(input.enhanced ?? '') ?? ENHANCED.exec(input.text);
  return match ? `${match[1]}.${match[2]}.${match[3]}` : null;
}

/** The reply code given, or the first one that starts the reply (after a `host [ip]: ` label). */
function smtpCodeOf(input: BounceInput): number | null {
  if (input.smtpCode) return input.smtpCode;
  const match = /(?:^|: )([245]\d\d)(?=[ -]|$)/.exec(input.text);
  return match ? Number(match[1]) : null;
}

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function decide(input: BounceInput): { class: RefusalClass; meaning: string } {
  const found = (rules: Rule[]) => rules.find((rule) => rule.pattern.test(input.text));
  const specific = found(SPECIFIC_TEXTS);
  if (specific) return { class: specific.class, meaning: specific.meaning ?? MEANING[specific.class] };
  const enhanced = enhancedCodeOf(input);
  const byCode = enhanced ? (BY_ENHANCED[enhanced] ?? BY_ENHANCED[enhanced.slice(2)]) : undefined;
  if (byCode) return { class: byCode, meaning: enhanced?.endsWith('.7.26') ? DMARC_MEANING : MEANING[byCode] };
  const generic = found(GENERIC_TEXTS);
  if (generic) return { class: generic.class, meaning: generic.meaning ?? MEANING[generic.class] };
  // A bare 4.7.x is a provider holding mail back for now; 5.7.x refuses under its policy.
  if (enhanced?.startsWith('4.7.')) return { class: 'rate_limited', meaning: MEANING.rate_limited };
  if (enhanced?.startsWith('5.7.')) return { class: 'policy', meaning: MEANING.policy };
  if (!enhanced && smtpCodeOf(input) === 552) return { class: 'message_too_large', meaning: MEANING.message_too_large };
  return { class: 'other', meaning: MEANING.other };
}

/** Classifies a refusal or delay and explains it for a developer: what it means, then what to do. */
export function classifyResponse(input: BounceInput): BounceExplanation {
  const kind = input.kind ?? 'bounced';
  const { class: found, meaning } = decide(input);
  const fix = FIX[found];
  const next =
    kind === 'delayed'
      ? `Delivery is retried automatically; ${fix.temporary}`
      : kind === 'failed'
        ? `Delivery was given up after repeated tries; ${fix.final}`
        : (input.suppressed ?? true)
          ? `The address is now suppressed; ${fix.final}`
          : sentence(fix.final);
  return { class: found, explanation: `${meaning} ${next}` };
}

const COMPLAINT_MEANING: Record<string, string> = {
  abuse: 'The recipient marked the message as spam, and their provider reported it (an ARF abuse report).',
  fraud: 'The recipient reported the message as fraud or phishing, and their provider passed the report on.',
  virus: "The recipient's provider reported the message as carrying a virus.",
  other: "The recipient's provider reported a complaint about the message without saying what kind.",
};

/** A recipient's spam report (ARF Feedback-Type, lowercase; none for a simulated complaint) explained. */
export function explainComplaint(input: { feedbackType?: string | null; suppressed?: boolean } = {}): BounceExplanation {
  const meaning = COMPLAINT_MEANING[input.feedbackType ?? 'abuse'] ?? COMPLAINT_MEANING.other!;
  const fix = 'complaints hurt your sender reputation, so only mail people who asked for it and make unsubscribing easy.';
  return { class: 'complaint', explanation: `${meaning} ${(input.suppressed ?? true) ? `The address is now suppressed; ${fix}` : sentence(fix)}` };
}
