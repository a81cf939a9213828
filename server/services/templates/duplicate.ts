import type { Deps } from '../../deps';
import type { Principal } from '../shared/principal';
import { copyName } from '../shared/copy-name';
import { createTemplate, ownTemplate, type TemplateView } from './crud';
import { TEMPLATE_LIMITS } from './limits';

/** A new template with the content of one of the organization's (Resend's `POST /templates/{id}/duplicate`), named "… (copy)". */
export async function duplicateTemplate(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string): Promise<TemplateView> {
  const source = await ownTemplate(deps.db, principal, id);
  return createTemplate(deps, principal, {
    name: copyName(source.name, TEMPLATE_LIMITS.nameChars),
    subject: source.subject,
    ...(source.html === null ? {} : { html: source.html }),
    ...(source.text === null ? {} : { text: source.text }),
  });
}
