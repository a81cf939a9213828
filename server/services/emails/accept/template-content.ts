import type { Deps } from '../../../deps';
import { AppError, notFound, validationError } from '../../../errors';
import type { Principal } from '../../shared/principal';
import { parsedTemplatesOf } from '../../templates/lookup';
import { renderTemplate, type RenderedTemplate } from '../../templates/render';
import type { EmailInput, EmailRequest } from './input';
import { EMAIL_LIMITS } from './limits';

const BREAK_OR_NUL = /[\r\n\0]/;

/** What a template rendered to must be what an email may carry, as if it had been sent as it is. */
export function checkRendered(rendered: RenderedTemplate): void {
  const { subject } = rendered;
  if (subject.trim() === '') throw validationError('subject: the template\'s subject renders empty; give the variables it needs');
  if (subject.length > EMAIL_LIMITS.subjectChars) throw validationError(`subject: renders longer than ${EMAIL_LIMITS.subjectChars} characters`);
  if (BREAK_OR_NUL.test(subject)) throw validationError('subject: renders with a line break or NUL (from the variables)');
  const html = rendered.html ?? '';
  const text = rendered.text ?? '';
  // UTF-8 takes at least a byte per UTF-16 unit: a body too long in units is too large without measuring it.
  if (html.length + text.length > EMAIL_LIMITS.bodyBytes || Buffer.byteLength(html) + Buffer.byteLength(text) > EMAIL_LIMITS.bodyBytes) {
    throw validationError(`html: html and text together render to more than ${EMAIL_LIMITS.bodyBytes} bytes`);
  }
  if (html.includes('\0') || text.includes('\0')) throw validationError('html: renders with a NUL character (from the variables)');
}

/**
 * The emails of `requests` with their content: given, or rendered from the organization's
 * template (one read for all of them; parsed templates are cached). Per request, the email or why
 * it cannot be made: 404 for a template that is not the organization's, 400 for a render that
 * fails or gives what an email may not carry.
 */
export async function withTemplateContent<T extends EmailInput>(deps: Pick<Deps, 'db'>, principal: Principal, requests: Array<EmailRequest<T>>): Promise<Array<T | AppError>> {
  const ids = requests.flatMap((request) => ('template' in request ? [request.template.templateId] : []));
  const parsed = await parsedTemplatesOf(deps.db, principal.organizationId, ids);
  return requests.map((request) => {
    if (!('template' in request)) return request;
    const { template, ...email } = request;
    try {
      const found = parsed.get(template.templateId);
      if (!found) throw notFound('Template');
      if (found instanceof AppError) throw found;
      const rendered = renderTemplate(found, template.variables);
      checkRendered(rendered);
      return { ...email, subject: rendered.subject, html: rendered.html ?? undefined, text: rendered.text ?? undefined } as unknown as T;
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
  });
}

/** One email with its content, or the refusal thrown. */
export async function withContent<T extends EmailInput>(deps: Pick<Deps, 'db'>, principal: Principal, request: EmailRequest<T>): Promise<T> {
  const [email] = await withTemplateContent(deps, principal, [request]);
  if (email instanceof AppError) throw email;
  return email!;
}
