import type { Deps } from '../../../deps';
import { AppError } from '../../../errors';
import type { Principal } from '../../shared/principal';
import { BatchOutcomes, type BatchOutcome } from './batch-outcomes';
import { checkBatch, type BatchItem, type CheckedItem } from './check-batch';
import { storeEmails } from './store';
import { storeWithinLimits } from './within-limits';

export const BATCH_LIMIT = 100;

export type { BatchItem } from './check-batch';

/** Only a batch of no items or more than BATCH_LIMIT is refused whole. */
export function checkBatchSize(items: unknown[]): void {
  if (items.length === 0 || items.length > BATCH_LIMIT) throw new AppError('VALIDATION_ERROR', `A batch holds 1 to ${BATCH_LIMIT} emails (got ${items.length})`);
}

/**
 * Checks each item as `POST /emails` would, in request order (check-batch.ts), then stores every
 * accepted one in a single statement: one read of the organization, its sender domains and
 * suppressions for the whole batch, and one commit. An item's refusal is its outcome and never
 * fails the batch.
 */
export async function sendBatch(deps: Deps, principal: Principal, items: BatchItem[], log: (error: unknown) => void): Promise<BatchOutcome[]> {
  checkBatchSize(items);
  const outcomes = new BatchOutcomes(items.length, log);
  let passed: CheckedItem[] = [];
  try {
    const checked = await checkBatch(deps, principal, items, outcomes);
    passed = checked.passed;
    if (checked.context) {
      const { refusals, result } = await storeWithinLimits(deps, principal, checked.context, 'transactional', passed, (drafts, reservation) => storeEmails(deps.db, drafts, reservation));
      refusals.forEach((refusal, i) => {
        if (refusal) outcomes.failed(passed[i]!.index, refusal);
      });
      if (result.deliveriesQueued) deps.jobs.wake('webhook-delivery', []);
    }
  } catch (error) {
    // Nothing of the batch was stored (one statement): every item still without an outcome failed.
    outcomes.failRest(error);
    return outcomes.list;
  }
  const stored = passed.filter(({ index }) => !outcomes.settled(index));
  for (const { index, draft } of stored) outcomes.accepted(index, draft.row.id!);
  if (stored.length > 0) deps.jobs.wake('email-dispatch', stored.map(({ draft }) => draft.row.id!));
  return outcomes.list;
}
