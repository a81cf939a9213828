import { validationError } from '../../errors';
import { checkRendered } from '../emails/accept/template-content';
import { parsedTemplate } from '../templates/cache';
import { TEMPLATE_LIMITS } from '../templates/limits';
import { parseTemplate, type ParsedTemplate } from '../templates/parse';
import { renderTemplate, type RenderedTemplate } from '../templates/render';

/** A broadcast's message as written (Liquid), or as copied from its template when sending started. */
export interface BroadcastContent {
  subject: string;
  html: string | null;
  text: string | null;
}

/** What each contact's copy is rendered with. */
export interface ContactValues {
  email: string;
  name: string | null;
  unsubscribeUrl: string;
}

/** The values a test copy is rendered with: the recipient's address and a sample name. */
export const SAMPLE_NAME = 'Sample contact';

/** The rules of a broadcast's content, as a template's: a body, the size bound, Liquid that parses. 400s name the field. */
export function checkContent(content: BroadcastContent): void {
  if (content.subject.trim() === '') throw validationError('subject: must not be empty');
  if (content.html === null && content.text === null) throw validationError('html: give html, text or template_id');
  const bytes = Buffer.byteLength(content.html ?? '') + Buffer.byteLength(content.text ?? '');
  if (bytes > TEMPLATE_LIMITS.bodyBytes) throw validationError(`html: html and text together may be at most ${TEMPLATE_LIMITS.bodyBytes} bytes`);
  parseTemplate(content);
}

/**
 * One contact's copy: the subject and bodies rendered with `email`, `name` and `unsubscribe_url`
 * (HTML-escaped in the HTML part). `version` names the content (the broadcast's id and last
 * change), so the parse is cached across chunks and workers of one process.
 */
export function renderForContact(version: { id: string; updatedAt: Date }, content: BroadcastContent, contact: ContactValues): RenderedTemplate {
  return renderParsedForContact(parsedTemplate({ id: version.id, updatedAt: version.updatedAt, ...content }), contact);
}

/** The same from content parsed by the caller: a preview of unsaved content, which names no version to cache. */
export function renderParsedForContact(parsed: ParsedTemplate, contact: ContactValues): RenderedTemplate {
  const rendered = renderTemplate(parsed, { email: contact.email, name: contact.name ?? '', unsubscribe_url: contact.unsubscribeUrl });
  checkRendered(rendered);
  return rendered;
}
