import type { Deps } from '../../deps';
import type { Principal } from '../shared/principal';
import { parsedTemplate } from './cache';
import { ownTemplate } from './crud';
import { renderTemplate, type RenderedTemplate, type TemplateVariables } from './render';

/** The template rendered with the variables, as a send would render it, and what it missed. */
export async function previewTemplate(deps: Pick<Deps, 'db'>, principal: Principal, id: string, variables: TemplateVariables): Promise<RenderedTemplate> {
  const row = await ownTemplate(deps.db, principal, id);
  return renderTemplate(parsedTemplate(row), variables);
}
