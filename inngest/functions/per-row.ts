import type { Deps } from '@/server/deps';
import { repeatsWhenDue, type DueWork, type PerRow } from '@/server/jobs/declaration';
import { dueEvent, inngest } from '../client';

type Retries = NonNullable<Parameters<typeof inngest.createFunction>[0]['retries']>;

/**
 * The durable run of one row, as its declaration (server/jobs/due-work.ts) says: sleep until the
 * row is due, its step, then more steps while the row is due again (sleeping between) or has more
 * at once; what is left after the last step is woken again.
 */
export function perRowFunction(work: DueWork, perRow: PerRow<unknown>, getDeps: () => Deps) {
  // `<kind>/due` (what jobs.wake sends) unless the declaration names an event of its own.
  const event = perRow.event ?? dueEvent(work.kind);
  const { concurrency, retries, dueAt, repeat } = perRow;
  return inngest.createFunction(
    {
      id: perRow.functionId,
      triggers: { event },
      ...(concurrency && { concurrency: { key: `event.data.${concurrency.per}`, limit: concurrency.limit } }),
      ...(retries !== undefined && { retries: retries as Retries }),
    },
    async ({ event: received, step }) => {
      const data = received.data as { id?: string; organizationId?: string };
      const id = String(data.id ?? '');
      if (dueAt) {
        const due = await step.run(dueAt.step, () => dueAt.of(getDeps(), id));
        if (due) await step.sleepUntil(dueAt.sleep, due);
      }
      const run = (n: number): Promise<unknown> => step.run(repeat ? `${perRow.step}-${n}` : perRow.step, () => perRow.run(getDeps(), id));
      let result = await run(0);
      if (repeat && repeatsWhenDue(repeat)) {
        for (let n = 1, next = repeat.nextDueAt(result); next && n < repeat.maxSteps; n += 1, next = repeat.nextDueAt(result)) {
          await step.sleepUntil(`wait-${n}`, next);
          result = await run(n);
        }
      } else if (repeat) {
        for (let n = 1; repeat.more(result) && n < repeat.maxSteps; n += 1) result = await run(n);
        if (repeat.more(result)) await step.sendEvent(repeat.continueStep, { name: event, data: { id, organizationId: data.organizationId } });
      }
      const failure = perRow.failure?.(result, id);
      if (failure) throw new Error(failure);
      return { id, outcome: perRow.outcomeOf ? perRow.outcomeOf(result) : result };
    },
  );
}
