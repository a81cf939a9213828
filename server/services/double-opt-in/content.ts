import { AppError, validationError } from '../../errors';
import type { EmailRequest, SendEmailInput } from '../emails/accept/input';
import { templatesOf } from '../templates/lookup';
import type { Db } from '@/db/client';
import { CONFIRMATION_LINK_DAYS } from './rules';

/** How a confirmation is mailed: from an address on one of the organization's verified domains, with its template or the built-in text. */
export interface ConfirmationSender {
  /** `Name <address>` or the address; the domain must be verified (the admit door refuses it otherwise). */
  from: string;
  /** A published template of the organization that shows `{{ confirmation_url }}`. */
  templateId?: string | null;
}

/** What a confirmation's template sees beside its own variables. */
export interface ConfirmationVariables {
  confirmation_url: string;
  email: string;
  name: string | null;
  organization: string;
  expires_in_days: number;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtmlText = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

const USES_LINK = /\{\{-?\s*confirmation_url\b/;

/**
 * The confirmation email as a send request: the template with the link among its variables, or
 * the built-in text. A template that never shows `confirmation_url` would mail a confirmation
 * nobody can confirm: refused (400), as one not the organization's (404) or never published (400).
 */
export async function confirmationEmail(db: Db, organizationId: string, sender: ConfirmationSender, to: string, variables: ConfirmationVariables): Promise<EmailRequest<SendEmailInput>> {
  const base = { from: sender.from, to: [to], cc: [], bcc: [], replyTo: [], headers: {}, tags: [{ name: 'double_opt_in', value: 'confirmation' }], tracking: { opens: false, clicks: false }, attachments: [] };
  if (sender.templateId) {
    const { found, unpublished } = await templatesOf(db, organizationId, [sender.templateId]);
    if (unpublished.has(sender.templateId)) throw validationError('confirmation.template_id: the template has never been published; publish it first');
    const template = found.get(sender.templateId);
    if (!template) throw new AppError('NOT_FOUND', `Template ${sender.templateId} not found`);
    if (!USES_LINK.test(template.html ?? '') && !USES_LINK.test(template.text ?? '')) {
      throw validationError('confirmation.template_id: the template must show {{ confirmation_url }}, the link that confirms');
    }
    return { ...base, template: { templateId: sender.templateId, variables: { ...variables } } };
  }
  const url = variables.confirmation_url;
  const who = variables.organization;
  return {
    ...base,
    subject: `Confirm your subscription to ${who}`.slice(0, 200),
    text:
      `Please confirm that you want to receive email from ${who} at ${variables.email}:\n\n${url}\n\n` +
      `The link works for ${CONFIRMATION_LINK_DAYS} days. If you did not ask for this, ignore this message: you will not be subscribed.\n`,
    html:
      `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">` +
      `<p>Please confirm that you want to receive email from ${escapeHtmlText(who)} at ${escapeHtmlText(variables.email)}.</p>` +
      `<p><a href="${escapeHtmlText(url)}" style="display:inline-block;padding:.6rem 1.2rem;background:#0f172a;color:#fff;border-radius:.4rem;text-decoration:none">Confirm my subscription</a></p>` +
      `<p style="color:#555">The link works for ${CONFIRMATION_LINK_DAYS} days. If you did not ask for this, ignore this message: you will not be subscribed.</p>` +
      `</body></html>`,
  };
}
