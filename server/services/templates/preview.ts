import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import type { Principal } from '../shared/principal';
import { checkContent, ownTemplate } from './crud';
import type { TemplateSource } from './parse';
import type { RenderedTemplate, TemplateVariables } from './render';
import { latestContent } from './view';

/**
 * The template as last written (its draft, if it has one) rendered with the variables, as a send
 * would render it once published (in the render pool), and what it missed. A draft is parsed
 * afresh: the cache of parsed versions holds what sends render under the same version.
 */
export async function previewTemplate(deps: Pick<Deps, 'db' | 'templateRenderer'>, principal: Principal, id: string, variables: TemplateVariables): Promise<RenderedTemplate> {
  const row = await ownTemplate(deps.db, principal, id);
  const latest = latestContent(row);
  const source = { subject: latest.subject, html: latest.html, text: latest.text, declaredVariables: latest.declaredVariables };
  const [rendered] = await deps.templateRenderer.render({ template: row.draft ? null : { id: row.id, updatedAt: row.updatedAt }, source }, [variables]);
  if (rendered instanceof AppError) throw rendered;
  return rendered!;
}

/**
 * Content being written (the editor's fields, saved or not), rendered as a send of it would be:
 * the rules a save applies (html, text or both; the size bound), then the render pool, where a
 * syntax error is a 400 naming the part and line. Parsed afresh: it is no stored version, so it
 * is kept in no cache. Stores nothing.
 */
export async function previewContent(deps: Pick<Deps, 'templateRenderer'>, source: TemplateSource, variables: TemplateVariables): Promise<RenderedTemplate> {
  checkContent(source);
  const [rendered] = await deps.templateRenderer.render({ template: null, source }, [variables]);
  if (rendered instanceof AppError) throw rendered;
  return rendered!;
}
