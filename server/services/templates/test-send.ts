import type { Deps } from '../../deps';
import { checkRendered } from '../emails/accept/template-content';
import { EMAIL_LIMITS } from '../emails/accept/limits';
import { sendEmail } from '../emails/accept/send';
import type { Principal } from '../shared/principal';
import { ownTemplate } from './crud';
import type { TemplateSource } from './parse';
import { previewContent } from './preview';
import type { TemplateVariables } from './render';
import { latestContent } from './view';

export interface TemplateTestSend {
  from: string;
  to: string;
  variables: TemplateVariables;
  /** The editor's content, saved or not; the saved template when absent. */
  content?: TemplateSource;
}

/**
 * The editor's "Send test" (docs/templates.md): the template as it stands in the editor, saved
 * or not, rendered with the sample variables and sent to one address through the send path of
 * POST /emails, every check and limit of it, in the caller's mode (a test-mode send is recorded
 * and plays out, never delivered). The subject starts with [Test]; the tag template_test names
 * the template, so the list finds its tests. 404 for another organization's template.
 */
export async function sendTemplateTest(deps: Deps, principal: Principal, id: string, input: TemplateTestSend): Promise<{ id: string }> {
  const template = await ownTemplate(deps.db, principal, id);
  const latest = latestContent(template);
  const source = input.content ?? { subject: latest.subject, html: latest.html, text: latest.text, declaredVariables: latest.declaredVariables };
  const rendered = await previewContent(deps, source, input.variables);
  checkRendered(rendered);
  return sendEmail(deps, principal, {
    from: input.from,
    to: [input.to],
    cc: [],
    bcc: [],
    replyTo: [],
    subject: `[Test] ${rendered.subject}`.slice(0, EMAIL_LIMITS.subjectChars),
    html: rendered.html ?? undefined,
    text: rendered.text ?? undefined,
    headers: {},
    tags: [{ name: 'template_test', value: template.id }],
    tracking: {},
    attachments: [],
  });
}
