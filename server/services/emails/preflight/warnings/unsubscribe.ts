import type { PreflightWarning } from '../verdict';

const header = (headers: Record<string, string>, name: string): string | undefined => Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];

/**
 * List-shaped mail is a batch of one message to many (plans/list-shape.ts), or an email that calls
 * itself bulk or list mail in its headers. Gmail and Yahoo require bulk senders to give it a
 * List-Unsubscribe header (one-click, RFC 8058); broadcasts get one of ours on every message.
 */
export function unsubscribeWarning(email: { headers: Record<string, string> }, listShaped: boolean): PreflightWarning | null {
  const precedence = header(email.headers, 'Precedence')?.trim().toLowerCase();
  const declared = precedence === 'bulk' || precedence === 'list' || header(email.headers, 'List-Id') !== undefined;
  if (!listShaped && !declared) return null;
  if (header(email.headers, 'List-Unsubscribe') !== undefined) return null;
  const why = listShaped ? 'This batch sends one message to many people' : 'The headers mark this email as list mail (Precedence or List-Id)';
  return {
    code: 'missing_unsubscribe',
    message: `${why}, yet it carries no List-Unsubscribe header. Gmail and Yahoo require one of bulk senders and send such mail to spam or refuse it. To fix it, send it as a broadcast (every message then carries a one-click unsubscribe), or add List-Unsubscribe and List-Unsubscribe-Post: List-Unsubscribe=One-Click headers with your own unsubscribe URL.`,
  };
}
