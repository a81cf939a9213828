import type { Principal } from '../../shared/principal';
import { checkBatchSize } from '../accept/batch';
import { BatchOutcomes } from '../accept/batch-outcomes';
import { checkBatch, type BatchItem, type CheckedBatch } from '../accept/check-batch';
import { accountNow, allotNow } from '../accept/within-limits';
import { limitsOfRequests } from './limits';
import { recipientVerdicts } from './recipients';
import type { LimitsVerdict, PreflightDeps, PreflightVerdict } from './verdict';
import { verdictOf } from './verdict-of';

/**
 * `POST /emails/batch/preflight`: per item, in request order, what `POST /emails/batch` would
 * answer, by the same checks (check-batch.ts, then the limits allotted in order) and storing
 * nothing. An item the batch would refuse is refused here with the same code.
 */
export async function preflightBatch(deps: PreflightDeps, principal: Principal, items: BatchItem[], log: (error: unknown) => void): Promise<PreflightVerdict[]> {
  checkBatchSize(items);
  const outcomes = new BatchOutcomes(items.length, log);
  const limits = new Map<number, LimitsVerdict>();
  let checked: CheckedBatch | null = null;
  try {
    checked = await checkBatch(deps, principal, items, outcomes);
    const { context, passed } = checked;
    // Test mode counts nothing, so no limit applies to it.
    if (context && passed.length > 0 && principal.mode === 'live') {
      const allotted = allotNow(await accountNow(deps, principal, context), 'transactional', context.counters, deps.clock.now(), passed);
      allotted.allotment.refusals.forEach((refusal, i) => {
        if (refusal) outcomes.failed(passed[i]!.index, refusal);
      });
      limitsOfRequests(allotted.limits, allotted.used, passed, allotted.allotment.refusals).forEach((verdict, i) => limits.set(passed[i]!.index, verdict));
    }
  } catch (error) {
    outcomes.failRest(error);
  }
  const permits = new Map(checked?.passed.map((item) => [item.index, item.permit]));
  return Promise.all(
    items.map(async (item, index) => {
      const outcome = outcomes.list[index];
      const refusal = outcome && 'code' in outcome ? outcome : null;
      const input = checked?.contents[index];
      if (!input || !checked?.context) return verdictOf(refusal);
      return verdictOf(refusal, {
        deps,
        principal,
        scheduledAt: null,
        input,
        fromTemplate: 'input' in item && 'template' in item.input,
        recipients: await recipientVerdicts(deps, principal, input, checked.context),
        permit: permits.get(index),
        limits: limits.get(index) ?? null,
        listShaped: checked.listShaped,
      });
    }),
  );
}
