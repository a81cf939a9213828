import { AppError } from '../../../errors';
import type { Principal } from '../../shared/principal';
import { evaluate } from '../accept/evaluate';
import type { EmailRequest, SendEmailInput } from '../accept/input';
import { accountNow, allotNow } from '../accept/within-limits';
import { limitsOfRequests } from './limits';
import { recipientVerdicts } from './recipients';
import type { LimitsVerdict, PreflightDeps, PreflightVerdict, Refusal } from './verdict';
import { refusalOf, verdictOf } from './verdict-of';

/**
 * `POST /emails/preflight`: what `POST /emails` would do with this request, by the same checks
 * (evaluate.ts, the admit door's evaluation, then the limits against the counters as they are),
 * storing and sending nothing and counting nothing but the request against the rate limit.
 */
export async function preflightEmail(deps: PreflightDeps, principal: Principal, request: EmailRequest<SendEmailInput>): Promise<PreflightVerdict> {
  const { context, items } = await evaluate(deps, principal, [{ request }]);
  const item = items[0]!;
  if (item.replayOf) return { ...(await verdictOf(null)), replayOf: item.replayOf };
  let refusal: Refusal | null = null;
  let limits: LimitsVerdict | null = null;
  try {
    if (item.refusal !== undefined) throw item.refusal;
    // Test mode counts nothing, so no limit applies to it.
    if (principal.mode === 'live' && context && item.candidate) {
      const candidate = { recipients: item.candidate.recipients, listShaped: false };
      const allotted = allotNow(await accountNow(deps, principal, context), 'transactional', context.counters, deps.clock.now(), [candidate]);
      const limitRefusal = allotted.allotment.refusals[0] ?? null;
      if (limitRefusal) refusal = refusalOf(limitRefusal);
      limits = limitsOfRequests(allotted.limits, allotted.used, [candidate], allotted.allotment.refusals)[0]!;
    }
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    refusal = refusalOf(error);
  }
  return verdictOf(refusal, {
    deps,
    principal,
    scheduledAt: item.scheduledAt ?? null,
    input: item.input,
    fromTemplate: 'template' in request,
    recipients: item.input && context ? await recipientVerdicts(deps, principal, item.input, context) : null,
    permit: item.permit,
    limits,
    listShaped: false,
  });
}
