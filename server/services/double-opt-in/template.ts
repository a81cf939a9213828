import type { Db } from '@/db/client';
import { AppError, validationError } from '../../errors';
import { templatesOf } from '../templates/lookup';

const USES_LINK = /\{\{-?\s*confirmation_url\b/;

/**
 * A template that can write a confirmation mail: the organization's (404 otherwise, as a send
 * naming it), published (400), and showing `{{ confirmation_url }}` (400), since a confirmation
 * without its link can never be confirmed. `field` is the name the caller's body gives it
 * (`confirmation.template_id` on a contact, `confirmation_template_id` on a form).
 */
export async function checkConfirmationTemplate(db: Db, organizationId: string, templateId: string, field: string): Promise<void> {
  const { found, unpublished } = await templatesOf(db, organizationId, [templateId]);
  if (unpublished.has(templateId)) throw validationError(`${field}: the template has never been published; publish it first`);
  const template = found.get(templateId);
  if (!template) throw new AppError('NOT_FOUND', `Template ${templateId} not found`);
  if (!USES_LINK.test(template.html ?? '') && !USES_LINK.test(template.text ?? '')) {
    throw validationError(`${field}: the template must show {{ confirmation_url }}, the link that confirms`);
  }
}

/**
 * The template when it can still write a confirmation, else null (the built-in text). For mail
 * nobody is there to correct: a person's form submission, or a re-send inheriting the last
 * confirmation's template. The template was checked when it was chosen, but may have been edited
 * since to drop the link; a person is then mailed a working link in the built-in words rather
 * than an error.
 */
export async function confirmationTemplateOrBuiltIn(db: Db, organizationId: string, templateId: string | null): Promise<string | null> {
  if (!templateId) return null;
  try {
    await checkConfirmationTemplate(db, organizationId, templateId, 'template_id');
    return templateId;
  } catch (error) {
    if (error instanceof AppError && (error.appCode === 'VALIDATION_ERROR' || error.appCode === 'NOT_FOUND')) return null;
    throw error;
  }
}
