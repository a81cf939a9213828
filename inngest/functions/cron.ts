import type { Deps } from '@/server/deps';
import { isFanOut, type DueWork } from '@/server/jobs/declaration';
import { dueEvent, inngest } from '../client';

/**
 * A kind's cron: its sweep in one step (the safety net under the per-row runs, or the whole of a
 * kind without them), or a fan-out that sends each due row to the per-row function, also run
 * whenever the kind is woken.
 */
export function cronFunction(work: DueWork, getDeps: () => Deps) {
  const { cron } = work;
  if (!isFanOut(cron)) {
    return inngest.createFunction({ id: cron.functionId, triggers: { cron: cron.schedule } }, async ({ step }) => {
      const result = await step.run(cron.step, () => work.sweep(getDeps()));
      return cron.answer ? cron.answer(result) : result;
    });
  }
  // The rows go to a per-row function of their own event: `<kind>/due` would wake this fan-out again.
  const rowEvent = work.perRow?.event;
  if (!rowEvent) throw new Error(`${work.kind}: a fan-out cron sends its rows to a per-row function with an event of its own`);
  return inngest.createFunction({ id: cron.functionId, triggers: [{ event: dueEvent(work.kind) }, { cron: cron.schedule }] }, async ({ step }) => {
    const due = (await step.run(cron.step, () => cron.due(getDeps()))) as unknown[];
    if (due.length > 0) await step.sendEvent(cron.sendStep, due.map((row) => ({ name: rowEvent, ...cron.eventOf(row) })));
    return { due: due.length };
  });
}
