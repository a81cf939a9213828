import type { Deps } from '../../deps';
import type { Principal } from '../shared/principal';
import { copyName } from '../shared/copy-name';
import { createTemplate, ownTemplate } from './crud';
import { TEMPLATE_LIMITS } from './limits';
import { latestContent, type TemplateView } from './view';

/**
 * A new template with the content of one of the organization's as last written (its draft, if it
 * has one), its declared variables, sender defaults (not its alias, which is its own) and whether it has drafts (Resend's `POST /templates/{id}/duplicate`),
 * named "… (copy)". A copy of a template with drafts starts unpublished, as a new one would.
 */
export async function duplicateTemplate(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string): Promise<TemplateView> {
  const source = await ownTemplate(deps.db, principal, id);
  const content = latestContent(source);
  return createTemplate(deps, principal, {
    name: copyName(source.name, TEMPLATE_LIMITS.nameChars),
    subject: content.subject,
    ...(content.html === null ? {} : { html: content.html }),
    ...(content.text === null ? {} : { text: content.text }),
    variables: content.declaredVariables,
    ...(content.from ? { from: content.from } : {}),
    replyTo: content.replyTo ?? [],
    draft: source.drafts,
  });
}
