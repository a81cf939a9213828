import type { Deps } from '../../../deps';
import { AppError, notFound, validationError } from '../../../errors';
import type { Principal } from '../../shared/principal';
import type { StoredTemplate } from '../../templates/cache';
import { templatesOf } from '../../templates/lookup';
import type { RenderOutcome } from '../../templates/render-pool';
import type { RenderedTemplate } from '../../templates/render';
import type { EmailInput, EmailRequest, TemplateContent } from './input';
import { EMAIL_LIMITS } from './limits';
import { flatMapped } from '../../shared/flat-mapped';

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
 * The sender and reply-to addresses of a send by template: the request's, else the template's
 * (Resend's template `from` and `reply_to`); a send that gives no sender needs a template with one.
 */
function sendingDefaults(email: { from: string; replyTo: string[] }, template: StoredTemplate): { from: string; replyTo: string[] } {
  const from = email.from || template.from;
  if (!from) throw validationError('from: is required; the template has no from to use');
  return { from, replyTo: email.replyTo.length > 0 ? email.replyTo : (template.replyTo ?? []) };
}

/** The request's names for the template and its variables, as refusals say them. */
const fieldsOf = (template: TemplateContent) => (template.form === 'template' ? { id: 'template.id', variables: 'template.variables' } : { id: 'template_id', variables: 'variables' });

/**
 * The emails of `requests` with their content: given, or rendered from the organization's
 * template (one read for all of them; sources are cached) in the render pool, one task per
 * template for the whole batch, as a send renders (Resend's required variables refused). Per
 * request, the email or why it cannot be made: 404 for a template that is not the
 * organization's, 400 for one with drafts never published, 400 naming the variable or the part
 * for a value of the wrong type, a required variable missing, or a render that fails or gives
 * what an email may not carry.
 */
export async function withTemplateContent<T extends EmailInput>(deps: Pick<Deps, 'db' | 'templateRenderer'>, principal: Principal, requests: Array<EmailRequest<T>>): Promise<Array<T | AppError>> {
  const ids = flatMapped(requests, (request) => ('template' in request ? [request.template.templateId] : []));
  if (ids.length === 0) return requests as T[];
  const { found, unpublished } = await templatesOf(deps.db, principal.organizationId, ids);
  // Each template's renders together (per way of naming its variables, which refusals say): the requests' indexes, and their variables in the same order.
  const byTemplate = new Map<string, { id: string; field: string; indexes: number[]; variables: Array<Record<string, unknown>> }>();
  requests.forEach((request, index) => {
    if (!('template' in request) || !found.has(request.template.templateId)) return;
    const field = fieldsOf(request.template).variables;
    const key = `${request.template.templateId} ${field}`;
    const renders = byTemplate.get(key) ?? { id: request.template.templateId, field, indexes: [], variables: [] };
    renders.indexes.push(index);
    renders.variables.push(request.template.variables);
    byTemplate.set(key, renders);
  });
  const outcomes = new Map<number, RenderOutcome>();
  await Promise.all(
    [...byTemplate.values()].map(async ({ id, field, indexes, variables }) => {
      const row = found.get(id)!;
      const source = { subject: row.subject, html: row.html, text: row.text, declaredVariables: row.declaredVariables };
      const rendered = await deps.templateRenderer.render({ template: { id: row.id, updatedAt: row.updatedAt }, source, mode: { send: true, field } }, variables);
      indexes.forEach((index, i) => outcomes.set(index, rendered[i]!));
    }),
  );
  return requests.map((request, index) => {
    if (!('template' in request)) return request;
    const { template, ...email } = request;
    try {
      if (unpublished.has(template.templateId)) {
        throw validationError(`${fieldsOf(template).id}: the template has never been published; publish it (POST /templates/{id}/publish) to send with it`);
      }
      const rendered = outcomes.get(index);
      if (!rendered) throw notFound('Template');
      if (rendered instanceof AppError) throw rendered;
      checkRendered(rendered);
      const defaults = sendingDefaults(email, found.get(template.templateId)!);
      return { ...email, ...defaults, subject: rendered.subject, html: rendered.html ?? undefined, text: rendered.text ?? undefined } as unknown as T;
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
  });
}

/** One email with its content, or the refusal thrown. */
export async function withContent<T extends EmailInput>(deps: Pick<Deps, 'db' | 'templateRenderer'>, principal: Principal, request: EmailRequest<T>): Promise<T> {
  const [email] = await withTemplateContent(deps, principal, [request]);
  if (email instanceof AppError) throw email;
  return email!;
}
