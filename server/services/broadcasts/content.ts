import type { ContactPropertyValue } from '@/db/schema';
import type { Deps } from '../../deps';
import { AppError, validationError } from '../../errors';
import { checkRendered } from '../emails/accept/template-content';
import { TEMPLATE_LIMITS } from '../templates/limits';
import { parseTemplate } from '../templates/parse';
import type { RenderedTemplate } from '../templates/render';
import { withPreheader } from './preheader';

/** A broadcast's message as written (Liquid), or as copied from its template when sending started. */
export interface BroadcastContent {
  subject: string;
  html: string | null;
  text: string | null;
  /** The preheader put hidden at the start of each copy's HTML (preheader.ts). */
  previewText?: string | null;
}

/** What each contact's copy is rendered with. */
export interface ContactValues {
  email: string;
  name: string | null;
  unsubscribeUrl: string;
  firstName?: string | null;
  lastName?: string | null;
  /** The contact's property values over the organization's fallbacks. */
  properties?: Record<string, ContactPropertyValue>;
  /** Variables of the send beside the contact's own (an automation step's), which take precedence. */
  variables?: Record<string, unknown>;
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

/** A value a copy has, or nothing (so that a fallback applies, `{{{FIRST_NAME|there}}}`). */
const given = (value: string | null | undefined) => (value ? value : undefined);

/**
 * The variables a contact's copy is rendered with: ours (`email`, `name`, `first_name`,
 * `last_name`, `unsubscribe_url`, and `contact.<field or property>`), and Resend's merge tags
 * (`EMAIL`, `FIRST_NAME`, `LAST_NAME`, `RESEND_UNSUBSCRIBE_URL`, `contact.<property>`).
 */
const variablesOf = (contact: ContactValues) => ({
  email: contact.email,
  name: contact.name ?? '',
  first_name: given(contact.firstName),
  last_name: given(contact.lastName),
  unsubscribe_url: contact.unsubscribeUrl,
  contact: { ...contact.properties, email: contact.email, name: given(contact.name), first_name: given(contact.firstName), last_name: given(contact.lastName) },
  EMAIL: contact.email,
  FIRST_NAME: given(contact.firstName),
  LAST_NAME: given(contact.lastName),
  RESEND_UNSUBSCRIBE_URL: contact.unsubscribeUrl,
  ...contact.variables,
});

/**
 * Contacts' copies: the subject and bodies rendered in the render pool with `email`, `name` and
 * `unsubscribe_url` (HTML-escaped in the HTML part), the preheader put into the HTML, each checked
 * as an email is. Per contact, the
 * copy or the 400 naming the part. `version` names stored content (the broadcast's id and last
 * change), so the workers parse it once; null for content parsed afresh (a preview, a test copy).
 */
export async function renderForContacts(
  deps: Pick<Deps, 'templateRenderer'>,
  version: { id: string; updatedAt: Date } | null,
  content: BroadcastContent,
  contacts: ContactValues[],
): Promise<Array<RenderedTemplate | AppError>> {
  const source = { subject: content.subject, html: content.html, text: content.text };
  const outcomes = await deps.templateRenderer.render({ template: version, source }, contacts.map(variablesOf));
  return outcomes.map((rendered) => {
    if (rendered instanceof AppError) return rendered;
    const outcome = rendered.html === null ? rendered : { ...rendered, html: withPreheader(rendered.html, content.previewText) };
    try {
      checkRendered(outcome);
      return outcome;
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
  });
}

/** One contact's copy, or the refusal thrown. */
export async function renderForContact(deps: Pick<Deps, 'templateRenderer'>, version: { id: string; updatedAt: Date } | null, content: BroadcastContent, contact: ContactValues): Promise<RenderedTemplate> {
  const [rendered] = await renderForContacts(deps, version, content, [contact]);
  if (rendered instanceof AppError) throw rendered;
  return rendered!;
}
