import { asHtmlDocument } from './html-document';
import { textFromHtml } from './text-from-html';

export interface MessageBody {
  html?: string;
  text?: string;
  /** True when `text` was derived from the HTML because none was given. */
  textDerived: boolean;
}

/**
 * What every message carries: a complete HTML document when there is HTML, and always a text
 * part. Text given by the sender (even beside HTML) is kept as it is; when there is only HTML,
 * the text is derived from it, from the HTML as the sender wrote it, before any tracking rewrite,
 * so a text-only reader sees where each link really goes.
 */
export function completeBody(input: { subject: string; html?: string | null; text?: string | null }): MessageBody {
  const html = input.html ? asHtmlDocument(input.html, input.subject) : undefined;
  const given = input.text ?? undefined;
  if (given !== undefined && given.trim() !== '') return { html, text: given, textDerived: false };
  if (!input.html) return { html, text: given, textDerived: false };
  return { html, text: textFromHtml(input.html), textDerived: true };
}

/** Whether a send's text part will be derived from its HTML (what the preflight reports). */
export const textWillBeDerived = (email: { html?: string | null; text?: string | null }): boolean =>
  Boolean(email.html) && (email.text ?? '').trim() === '';
