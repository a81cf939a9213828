import type { Deps } from '@/server/deps';
import { dueDeliveries } from '@/server/services/webhooks/claim';
import { attemptDelivery, PER_ENDPOINT } from '@/server/services/webhooks/deliver';
import { MAX_ATTEMPTS } from '@/server/services/webhooks/schedule';
import { dueEvent, inngest } from '../client';

const ATTEMPT_EVENT = 'webhook-delivery/attempt';

/**
 * One run per delivery: an attempt, then a sleep until each retry is due (the schedule is the
 * service's, stored on the delivery), at most PER_ENDPOINT runs at once per endpoint. A fan-out
 * run, woken when events are logged and every minute as a safety net, sends one event per due
 * delivery; the event id de-duplicates a delivery's attempt across fan-outs, and the claim makes
 * a second run of it a no-op.
 */
export function webhookDeliveryFunctions(getDeps: () => Deps) {
  const deliver = inngest.createFunction(
    { id: 'webhook-delivery', triggers: { event: ATTEMPT_EVENT }, concurrency: { key: 'event.data.webhookId', limit: PER_ENDPOINT } },
    async ({ event, step }) => {
      const id = String((event.data as { id?: string }).id ?? '');
      let result = await step.run('attempt-0', () => attemptDelivery(getDeps(), id));
      for (let i = 1; result.nextAttemptAt && i < MAX_ATTEMPTS; i += 1) {
        await step.sleepUntil(`wait-${i}`, result.nextAttemptAt);
        result = await step.run(`attempt-${i}`, () => attemptDelivery(getDeps(), id));
      }
      return { id, outcome: result.outcome };
    },
  );
  const fanOut = inngest.createFunction(
    { id: 'webhook-delivery-fan-out', triggers: [{ event: dueEvent('webhook-delivery') }, { cron: '* * * * *' }] },
    async ({ step }) => {
      const due = await step.run('due', () => dueDeliveries(getDeps()));
      if (due.length > 0) {
        await step.sendEvent(
          'attempts',
          due.map((delivery) => ({ name: ATTEMPT_EVENT, id: `${delivery.id}-${delivery.attempts}`, data: { id: delivery.id, webhookId: delivery.webhookId } })),
        );
      }
      return { due: due.length };
    },
  );
  return [deliver, fanOut];
}
