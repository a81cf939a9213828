import type { Principal } from '../../shared/principal';
import { admitItemOf, checkBatchSize, type BatchItem } from '../accept/batch';
import { BatchOutcomes } from '../accept/batch-outcomes';
import { evaluate, type Evaluation } from '../accept/evaluate';
import { accountNow, allotNow } from '../accept/within-limits';
import { limitsOfRequests } from './limits';
import { recipientVerdicts } from './recipients';
import type { LimitsVerdict, PreflightDeps, PreflightVerdict } from './verdict';
import { verdictOf } from './verdict-of';

/**
 * `POST /emails/batch/preflight`: per item, in request order, what `POST /emails/batch` would
 * answer, by the same checks (evaluate.ts, the admit door's evaluation, then the limits allotted
 * in order) and storing nothing. An item the batch would refuse is refused here with the same code.
 */
export async function preflightBatch(deps: PreflightDeps, principal: Principal, items: BatchItem[], log: (error: unknown) => void): Promise<PreflightVerdict[]> {
  checkBatchSize(items);
  const outcomes = new BatchOutcomes(items.length, log);
  const limits = new Map<number, LimitsVerdict>();
  let evaluation: Evaluation | null = null;
  try {
    evaluation = await evaluate(deps, principal, items.map(admitItemOf));
    evaluation.items.forEach((item, index) => {
      if (item.refusal !== undefined) outcomes.failed(index, item.refusal);
    });
    const passed = evaluation.items.flatMap((item, index) => (item.candidate ? [{ index, ...item.candidate }] : []));
    const { context } = evaluation;
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
  return Promise.all(
    items.map(async (item, index) => {
      const outcome = outcomes.list[index];
      const refusal = outcome && 'code' in outcome ? outcome : null;
      const evaluated = evaluation?.items[index];
      const input = evaluated?.input;
      if (!input || !evaluation?.context) return verdictOf(refusal);
      return verdictOf(refusal, {
        deps,
        principal,
        scheduledAt: null,
        input,
        fromTemplate: 'input' in item && 'template' in item.input,
        recipients: await recipientVerdicts(deps, principal, input, evaluation.context),
        permit: evaluated.permit,
        limits: limits.get(index) ?? null,
        listShaped: evaluation.listShaped,
      });
    }),
  );
}
