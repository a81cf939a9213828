import { AppError } from '../../../errors';
import type { Principal } from '../../shared/principal';
import { evaluateSend, type Evaluation } from '../accept/evaluate';
import { findByIdempotencyKey } from '../accept/idempotency';
import type { EmailRequest, SendEmailInput } from '../accept/input';
import { accountNow, allotNow } from '../accept/within-limits';
import { limitsOfRequests } from './limits';
import { recipientVerdicts } from './recipients';
import type { LimitsVerdict, PreflightDeps, PreflightVerdict, Refusal } from './verdict';
import { refusalOf, verdictOf } from './verdict-of';

/**
 * `POST /emails/preflight`: what `POST /emails` would do with this request, by the same checks
 * (evaluate.ts, then the limits against the counters as they are), storing and sending nothing
 * and counting nothing but the request against the rate limit.
 */
export async function preflightEmail(deps: PreflightDeps, principal: Principal, request: EmailRequest<SendEmailInput>): Promise<PreflightVerdict> {
  if (request.idempotencyKey) {
    const replayOf = await findByIdempotencyKey(deps, principal, request.idempotencyKey);
    if (replayOf) return { ...(await verdictOf(null)), replayOf };
  }
  const reached: Partial<Evaluation> = {};
  let refusal: Refusal | null = null;
  let limits: LimitsVerdict | null = null;
  try {
    const { context, permit } = await evaluateSend(deps, principal, request, reached);
    // Test mode counts nothing, so no limit applies to it.
    if (principal.mode === 'live') {
      const candidate = { recipients: permit.deliverable.length, listShaped: false };
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
    scheduledAt: reached.scheduledAt ?? null,
    input: reached.input,
    fromTemplate: 'template' in request,
    recipients: reached.input && reached.context ? await recipientVerdicts(deps, principal, reached.input, reached.context) : null,
    permit: reached.permit,
    limits,
    listShaped: false,
  });
}
