import type { PreflightWarning } from '../verdict';

/** Gmail shows "[Message clipped]" past this many bytes of HTML, hiding the rest (and any unsubscribe link in it). */
export const GMAIL_CLIP_BYTES = 102 * 1024;

/** `sentHtml` is the HTML as it goes out: with the tracking pixel and rewritten links when the email is tracked. */
export function htmlSizeWarning(sentHtml: string | null, tracked: boolean): PreflightWarning | null {
  if (!sentHtml) return null;
  const bytes = Buffer.byteLength(sentHtml);
  if (bytes <= GMAIL_CLIP_BYTES) return null;
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  return {
    code: 'html_clipped',
    message: `The HTML is ${kb(bytes)}${tracked ? ' as sent (with the tracking links and pixel)' : ''}, over Gmail's ${kb(GMAIL_CLIP_BYTES)}: Gmail clips it and hides the rest behind "View entire message", with any unsubscribe link and the open-tracking pixel. To fix it, trim the HTML (inline styles repeated on every element and embedded images are the usual cause)${tracked ? ', or turn click tracking off for this email' : ''}.`,
  };
}
