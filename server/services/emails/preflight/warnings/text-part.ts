import type { PreflightWarning } from '../verdict';

/** HTML without a text alternative: some clients and screen readers show only text, and spam filters score HTML-only mail. */
export function textPartWarning(email: { html?: string; text?: string }): PreflightWarning | null {
  if (!email.html || (email.text ?? '').trim() !== '') return null;
  return {
    code: 'no_text_part',
    message: 'The email has HTML but no text part. Some mail clients and screen readers show only text, and spam filters count HTML-only mail against it. To fix it, give `text` too (a plain version of the same message).',
  };
}
