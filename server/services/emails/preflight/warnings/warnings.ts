import type { Deps } from '../../../../deps';
import { newId } from '../../../../ids';
import { asHtmlDocument } from '../../../../mail/html-document';
import { rewriteForTracking } from '../../../tracking/rewrite';
import type { SendPermit } from '../../accept/checks';
import type { EmailInput } from '../../accept/input';
import type { PreflightWarning } from '../verdict';
import { alignmentWarning } from './alignment';
import { htmlSizeWarning } from './html-size';
import { shortenerWarning } from './shorteners';
import { textPartWarning } from './text-part';
import { unsubscribeWarning } from './unsubscribe';

/** What would not stop the send but may cost it the inbox, in the order a person fixes them. */
export async function warningsOf(
  deps: Pick<Deps, 'db' | 'config' | 'encryptionKey'>,
  organizationId: string,
  email: EmailInput,
  options: { permit: SendPermit | undefined; listShaped: boolean },
): Promise<PreflightWarning[]> {
  const { permit } = options;
  // Tracked as the draft of the email would be: the request's choice, else the domain's setting.
  const opens = email.tracking.opens ?? permit?.domain?.openTracking ?? false;
  const clicks = email.tracking.clicks ?? permit?.domain?.clickTracking ?? false;
  const [alignment, sent] = await Promise.all([
    alignmentWarning(deps, organizationId, email.from),
    // The HTML as delivery sends it: a fragment wrapped in its document, then rewritten for tracking.
    email.html ? rewriteForTracking(asHtmlDocument(email.html, email.subject), { emailId: newId(), appUrl: deps.config.appUrl, key: deps.encryptionKey, opens, clicks }) : null,
  ]);
  return [
    alignment,
    textPartWarning(email),
    htmlSizeWarning(sent?.html ?? null, opens || clicks),
    shortenerWarning(email),
    unsubscribeWarning(email, options.listShaped),
  ].filter((warning): warning is PreflightWarning => warning !== null);
}
