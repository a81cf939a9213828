import type { EmailRequest, SendEmailInput } from '../emails/accept/input';
import type { Db } from '@/db/client';
import { CONFIRMATION_LINK_DAYS } from './rules';
import { checkConfirmationTemplate } from './template';

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

/**
 * The confirmation email as a send request: the template with the link among its variables, or
 * the built-in text. A template that never shows `confirmation_url` would mail a confirmation
 * nobody can confirm: refused (400), as one not the organization's (404) or never published (400).
 */
export async function confirmationEmail(db: Db, organizationId: string, sender: ConfirmationSender, to: string, variables: ConfirmationVariables): Promise<EmailRequest<SendEmailInput>> {
  const base = { from: sender.from, to: [to], cc: [], bcc: [], replyTo: [], headers: {}, tags: [{ name: 'double_opt_in', value: 'confirmation' }], tracking: { opens: false, clicks: false }, attachments: [] };
  if (sender.templateId) {
    await checkConfirmationTemplate(db, organizationId, sender.templateId, 'confirmation.template_id');
    return { ...base, template: { templateId: sender.templateId, variables: { ...variables } } };
  }
  const url = variables.confirmation_url;
  const who = variables.organization;
  const subject = `Confirm your subscription to ${who}`.slice(0, 200);
  return {
    ...base,
    subject,
    text:
      `Please confirm that you want to receive email from ${who} at ${variables.email}:\n\n${url}\n\n` +
      `The link works for ${CONFIRMATION_LINK_DAYS} days. If you did not ask for this, ignore this message: you will not be subscribed.\n`,
    html:
      // A complete document, as every message the service writes itself (test/deliverability.test.ts).
      `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtmlText(subject)}</title></head><body style="font-family:sans-serif;line-height:1.5">` +
      `<p>Please confirm that you want to receive email from ${escapeHtmlText(who)} at ${escapeHtmlText(variables.email)}.</p>` +
      `<p><a href="${escapeHtmlText(url)}" style="display:inline-block;padding:.6rem 1.2rem;background:#0f172a;color:#fff;border-radius:.4rem;text-decoration:none">Confirm my subscription</a></p>` +
      `<p style="color:#555">The link works for ${CONFIRMATION_LINK_DAYS} days. If you did not ask for this, ignore this message: you will not be subscribed.</p>` +
      `</body></html>`,
  };
}
