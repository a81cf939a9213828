import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import type { Principal } from '../shared/principal';
import { ownTemplate } from './crud';
import type { RenderedTemplate, TemplateVariables } from './render';

/** The template rendered with the variables, as a send would render it (in the render pool), and what it missed. */
export async function previewTemplate(deps: Pick<Deps, 'db' | 'templateRenderer'>, principal: Principal, id: string, variables: TemplateVariables): Promise<RenderedTemplate> {
  const row = await ownTemplate(deps.db, principal, id);
  const [rendered] = await deps.templateRenderer.render({ template: { id: row.id, updatedAt: row.updatedAt }, source: { subject: row.subject, html: row.html, text: row.text } }, [variables]);
  if (rendered instanceof AppError) throw rendered;
  return rendered!;
}
