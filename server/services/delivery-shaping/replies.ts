import type { ProviderReply, ReplyVerdict } from '../../mail/shaping';

/**
 * What a provider's reply says about our traffic to it (as opposed to one recipient): the business
 * rule the adaptation runs on (docs/delivery.md, "Adaptation").
 *
 * - block: the provider refuses us for reputation (a block list, "poor reputation", Microsoft's
 *   S3140/S3150, Yahoo's TSS05/TSS09 and BL21/BL23, "your IP … blocked"). Only phrases about the
 *   sender: "mailbox is blocked" is one recipient's matter, and pausing on it would stop everyone. Sending more deepens it: pause and alert.
 *   Said with 4xx or 5xx alike; either way the recipients are not at fault and are not bounced.
 * - slow: the provider asks for less: 421 (at any stage, the greeting included), any 4.7.x
 *   (Gmail's 4.7.28 rate limit, Microsoft's 4.7.500/4.7.650, an unexplained 4.7.1), a rate or
 *   volume phrase, or no connection at all (refused, timed out, reset before answering).
 * - ok: anything else, 2xx and a single recipient's refusal (unknown user, mailbox full) alike;
 *   and greylisting said in words ("greylisted"): a first-contact delay per sender and recipient,
 *   which sending slower does not shorten.
 */
const REPUTATION_BLOCK =
  /spamhaus|spamcop|barracuda|sorbs|uceprotect|\bRBL\b|DNSBL|block ?list(ed)?|black ?list(ed)?|blocked using|listed (at|on|in|by) |\bS3150\b|\bS3140\b|banned sending IP|poor reputation|bad reputation|low reputation|IP reputation|domain reputation|sender reputation|reputation (of|is)|\[TSS0[59]\]|\[BL2[0-9]\]|permanently deferred|(sender|sending|client|your) (ip|ip address|address|domain|server|host|mail server)\b[^;]{0,60}?\b(blocked|blacklisted|block ?listed)|blocked (due to|because of|for) (a |an )?(poor |bad |low )?(reputation|spam|abuse)/i;
const ASKS_FOR_LESS = /unusual rate|rate[- ]limit|too many (messages|connections|emails|mails)|temporarily deferred|\[TSS0[1-4]\]|\[TS0[1-2]\]|throttl|sending volume|unexpected volume|slow down|try again later/i;
const ENHANCED_4_7 = /\b4\.7\.\d{1,3}\b/;
const GREYLISTED = /gr[ea]y-? ?list|postgrey/i;
/** Failures to reach the server at all: it is down, full, or refuses our connections. */
const UNREACHED = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'ECONNREFUSED', 'ECONNRESET']);

export function verdictOf(reply: ProviderReply): ReplyVerdict {
  const { smtpCode, text } = reply;
  if (smtpCode !== undefined && smtpCode >= 400 && REPUTATION_BLOCK.test(text)) return 'block';
  if (smtpCode === undefined) return reply.errorCode && UNREACHED.has(reply.errorCode) ? 'slow' : 'ok';
  if (GREYLISTED.test(text)) return 'ok';
  if (smtpCode === 421) return 'slow';
  if (smtpCode >= 400 && smtpCode < 500 && (ENHANCED_4_7.test(text) || ASKS_FOR_LESS.test(text))) return 'slow';
  return 'ok';
}

/**
 * Whether a block names the service itself rather than one sender: our sending address (the
 * connection's local address) or our host name (MAIL_HOST). Then every sending domain is blocked
 * with us, and the provider is paused for all of them.
 */
export function namesTheService(reply: ProviderReply, mailHost: string): boolean {
  const text = reply.text.toLowerCase();
  if (reply.localAddress) {
    const address = reply.localAddress.replace(/^::ffff:/, '').toLowerCase();
    if (new RegExp(`(^|[^0-9a-f.:])${address.replace(/[.:]/g, (c) => `\\${c}`)}($|[^0-9a-f.:])`).test(text)) return true;
  }
  return mailHost !== '' && text.includes(mailHost.toLowerCase());
}
