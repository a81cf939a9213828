import type { Deps } from '../deps';
import { AppError, type ErrorCode } from '../errors';
import { batchEmailRequest } from './email-request';
import { sendEmail } from './emails';
import type { Principal } from './principal';

export const BATCH_LIMIT = 100;

export type BatchOutcome = { id: string } | { error: string; code: ErrorCode };

const describe = (issues: Array<{ path: PropertyKey[]; message: string }>) =>
  issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ');

/**
 * Sends each item as `POST /emails` would, in request order. An item's refusal is its outcome and
 * never fails the batch; only a body that is not an array of 1 to 100 items is refused whole.
 */
export async function sendBatch(deps: Deps, principal: Principal, body: unknown, log: (error: unknown) => void): Promise<BatchOutcome[]> {
  if (!Array.isArray(body)) throw new AppError('VALIDATION_ERROR', 'The body must be a JSON array of emails');
  if (body.length === 0 || body.length > BATCH_LIMIT) throw new AppError('VALIDATION_ERROR', `A batch holds 1 to ${BATCH_LIMIT} emails (got ${body.length})`);
  const outcomes: BatchOutcome[] = [];
  for (const item of body) {
    const parsed = batchEmailRequest.safeParse(item);
    if (!parsed.success) {
      outcomes.push({ error: describe(parsed.error.issues), code: 'VALIDATION_ERROR' });
      continue;
    }
    try {
      outcomes.push(await sendEmail(deps, principal, parsed.data));
    } catch (error) {
      if (error instanceof AppError) outcomes.push({ error: error.message, code: error.appCode });
      else {
        log(error);
        outcomes.push({ error: 'Internal server error', code: 'INTERNAL_ERROR' });
      }
    }
  }
  return outcomes;
}
