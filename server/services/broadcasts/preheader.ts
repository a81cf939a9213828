/**
 * A broadcast's `preview_text` (Resend's), the preheader: the line inboxes show after the subject.
 * It goes into each copy's HTML as rendered, as the first thing in the body, in a div that mail
 * clients do not display (the usual technique: `display:none` for most, `mso-hide:all` for
 * Outlook, a zero size and opacity for the few that ignore both). Plain text, HTML-escaped; not
 * Liquid. A broadcast without HTML has no place for it: the text part is left as it is.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

const HIDDEN = 'display:none;font-size:1px;line-height:1px;max-height:0;max-width:0;opacity:0;overflow:hidden;mso-hide:all';
const BODY_OPEN = /<body\b[^>]*>/i;

/** The rendered HTML with the preheader first in its body (right after `<body …>`, or at the very start without one). */
export function withPreheader(html: string, previewText: string | null | undefined): string {
  if (!previewText) return html;
  const div = `<div style="${HIDDEN}">${escapeHtml(previewText)}</div>`;
  const body = BODY_OPEN.exec(html);
  if (!body) return div + html;
  const at = body.index + body[0].length;
  return html.slice(0, at) + div + html.slice(at);
}
