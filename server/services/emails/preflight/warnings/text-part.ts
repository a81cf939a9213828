import { textWillBeDerived } from '../../../../mail/body';
import type { PreflightWarning } from '../verdict';

/**
 * HTML without a text alternative: the send goes ahead with a text part derived from the HTML
 * (server/mail/body.ts). Said so, because the sender may want to write what text-only readers
 * (some clients, screen readers, spam filters comparing the parts) see.
 */
export function textPartWarning(email: { html?: string; text?: string }): PreflightWarning | null {
  if (!textWillBeDerived(email)) return null;
  return {
    code: 'text_part_derived',
    message:
      'The email has HTML but no text part, so the text part will be derived from the HTML (links kept as "text (url)", images left out). To choose what text-only readers see, give `text` too.',
  };
}
