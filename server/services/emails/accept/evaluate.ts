import type { Deps } from '../../../deps';
import { normalizeAddress, parseMailbox } from '../../shared/addresses';
import type { Principal } from '../../shared/principal';
import { scheduleTime } from '../schedule-time';
import { permitWithin, type SendPermit } from './checks';
import { loadSendContext, type SendContext } from './context';
import { recipientsOf, type EmailRequest, type SendEmailInput } from './input';
import { withContent } from './template-content';

/** What the checks of one email found, up to the limits: its content, its send time, its permit and what the limits read. */
export interface Evaluation {
  input: SendEmailInput;
  scheduledAt: Date | null;
  context: SendContext;
  permit: SendPermit;
}

/**
 * Every refusal of `POST /emails` but the limits, in its order, storing nothing: the template
 * rendered, the send time, then the account, sender domain and recipients against the context.
 * The preflight runs exactly this; `reached` keeps what was settled before a refusal, so it can
 * still show the rendered content and the recipients of a refused email.
 */
export async function evaluateSend(deps: Pick<Deps, 'db' | 'config' | 'clock' | 'encryptionKey' | 'templateRenderer'>, principal: Principal, request: EmailRequest<SendEmailInput>, reached: Partial<Evaluation> = {}): Promise<Evaluation> {
  const input = (reached.input = await withContent(deps, principal, request));
  const scheduledAt = (reached.scheduledAt = scheduleTime(deps, input.scheduledAt));
  const recipients = recipientsOf(input);
  const context = (reached.context = await loadSendContext(deps, principal.organizationId, [parseMailbox(input.from).domain], recipients.map(normalizeAddress)));
  const permit = (reached.permit = await permitWithin(deps, principal, context, { from: input.from, recipients }));
  return { input, scheduledAt, context, permit };
}
