import type { Deps } from '../../../deps';
import { AppError, type ErrorCode } from '../../../errors';
import { normalizeAddress, parseMailbox } from '../../shared/addresses';
import { draftEmail, recipientsOf } from './draft';
import { batchEmailRequest, type BatchEmailRequest } from './request';
import { storeEmails, type EmailDraft } from './store';
import type { Principal } from '../../shared/principal';
import { permitWithin } from './checks';
import { loadSendContext } from './context';

export const BATCH_LIMIT = 100;

export type BatchOutcome = { id: string } | { error: string; code: ErrorCode };

const describe = (issues: Array<{ path: PropertyKey[]; message: string }>) =>
  issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ');

/**
 * Checks each item as `POST /emails` would, in request order, then stores every accepted one in a
 * single statement: one read of the organization, its sender domains and suppressions for the
 * whole batch, and one commit. An item's refusal is its outcome and never fails the batch; only
 * a body that is not an array of 1 to 100 items is refused whole.
 */
export async function sendBatch(deps: Deps, principal: Principal, body: unknown, log: (error: unknown) => void): Promise<BatchOutcome[]> {
  if (!Array.isArray(body)) throw new AppError('VALIDATION_ERROR', 'The body must be a JSON array of emails');
  if (body.length === 0 || body.length > BATCH_LIMIT) throw new AppError('VALIDATION_ERROR', `A batch holds 1 to ${BATCH_LIMIT} emails (got ${body.length})`);
  const outcomes: BatchOutcome[] = new Array(body.length);
  const valid: Array<{ index: number; input: BatchEmailRequest }> = [];
  body.forEach((item, index) => {
    const parsed = batchEmailRequest.safeParse(item);
    if (parsed.success) valid.push({ index, input: parsed.data });
    else outcomes[index] = { error: describe(parsed.error.issues), code: 'VALIDATION_ERROR' };
  });
  const failed = (index: number, error: unknown) => {
    if (error instanceof AppError) outcomes[index] = { error: error.message, code: error.appCode };
    else {
      log(error);
      outcomes[index] = { error: 'Internal server error', code: 'INTERNAL_ERROR' };
    }
  };

  const drafts: Array<{ index: number; draft: EmailDraft }> = [];
  if (valid.length > 0) {
    try {
      const context = await loadSendContext(
        deps.db,
        principal.organizationId,
        valid.map(({ input }) => parseMailbox(input.from).domain),
        valid.flatMap(({ input }) => recipientsOf(input).map(normalizeAddress)),
      );
      const now = deps.clock.now();
      for (const { index, input } of valid) {
        try {
          const permit = await permitWithin(deps, principal, context, { from: input.from, recipients: recipientsOf(input) });
          drafts.push({ index, draft: draftEmail(principal, input, permit, { now, scheduledAt: null }) });
        } catch (error) {
          failed(index, error);
        }
      }
      await storeEmails(deps.db, drafts.map(({ draft }) => draft));
    } catch (error) {
      // Nothing of the batch was stored (one statement): every item still without an outcome failed.
      for (const { index } of valid) if (!outcomes[index]) failed(index, error);
      return outcomes;
    }
  }
  for (const { index, draft } of drafts) outcomes[index] = { id: draft.row.id! };
  if (drafts.length > 0) deps.jobs.wake('email-dispatch', drafts.map(({ draft }) => draft.row.id!));
  return outcomes;
}
