import type { Deps } from '@/server/deps';
import { broadcastDueAt, runBroadcast, sweepBroadcasts, type RunOutcome } from '@/server/services/broadcasts/fan-out';
import { dueEvent, inngest } from '../client';

/** Steps of one run; a broadcast with chunks left after them is woken again (and the cron finds it anyway). */
const MAX_STEPS = 400;

/**
 * One run per send, schedule or resume of a broadcast: it sleeps until the broadcast is due, then
 * fans it out a step at a time (each step a few seconds of chunks, under the broadcast's claim).
 * One run per organization at a time: a broadcast never competes with another of its own for the
 * organization's limits. A held broadcast ends the run; the resume wakes a new one, and the cron
 * sweep takes up limit holds when their reset comes.
 */
export function broadcastFunctions(getDeps: () => Deps) {
  const fanOut = inngest.createFunction(
    { id: 'broadcast-fanout', triggers: { event: dueEvent('broadcast-fanout') }, concurrency: { key: 'event.data.organizationId', limit: 1 } },
    async ({ event, step }) => {
      const data = event.data as { id?: string; organizationId?: string };
      const id = String(data.id ?? '');
      const due = await step.run('due-at', () => broadcastDueAt(getDeps(), id));
      if (due) await step.sleepUntil('wait', due);
      let outcome: RunOutcome = await step.run('fan-out-0', () => runBroadcast(getDeps(), id));
      for (let i = 1; outcome === 'more' && i < MAX_STEPS; i += 1) {
        outcome = await step.run(`fan-out-${i}`, () => runBroadcast(getDeps(), id));
      }
      if (outcome === 'more') await step.sendEvent('continue', { name: dueEvent('broadcast-fanout'), data: { id, organizationId: data.organizationId } });
      return { id, outcome };
    },
  );
  const sweep = inngest.createFunction({ id: 'broadcast-fanout-sweep', triggers: { cron: '* * * * *' } }, async ({ step }) => step.run('sweep', () => sweepBroadcasts(getDeps())));
  return [fanOut, sweep];
}
