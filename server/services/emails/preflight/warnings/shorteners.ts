import type { PreflightWarning } from '../verdict';
import { hostOf, linksOf } from './links';

/**
 * Public URL shorteners: spammers hide destinations behind them, so filters (Spamhaus DBL,
 * SpamAssassin's URI rules, Gmail) score their links, and one abused short link can block mail
 * that carries any link of the shortener. Branded short domains of one's own are fine.
 */
export const URL_SHORTENERS = new Set([
  'bit.ly', 'bitly.com', 'tinyurl.com', 't.co', 'goo.gl', 'ow.ly', 'is.gd', 'v.gd', 'buff.ly', 'rebrand.ly', 'cutt.ly', 'shorturl.at', 'tiny.cc', 'rb.gy',
  't.ly', 'bl.ink', 'lnkd.in', 's.id', 'qr.ae', 'adf.ly', 'shorte.st', 'bit.do', 'soo.gd', 'clck.ru', 'tiny.one', 'shorturl.com', 'short.io', 'snip.ly', 'x.gd', 'u.to',
]);

export function shortenerWarning(email: { html?: string; text?: string }): PreflightWarning | null {
  const hosts = [...new Set(linksOf(email).map(hostOf).filter((host): host is string => host !== null && URL_SHORTENERS.has(host)))];
  if (hosts.length === 0) return null;
  return {
    code: 'url_shortener',
    message: `The email links through a public URL shortener (${hosts.join(', ')}). Spam filters score such links, since they hide where they lead, and one abused link of the shortener can get mail blocked. To fix it, link to the destination itself (click tracking already shows which links are clicked).`,
  };
}
