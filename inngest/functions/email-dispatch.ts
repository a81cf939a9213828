import type { Deps } from '@/server/deps';
import { dispatchEmail, nextAttemptAtOf, sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { dueEvent, inngest } from '../client';

const MAX_STEPS = 40;

/**
 * One run per accepted (or rescheduled) email: it sleeps until the email is due, dispatches it,
 * and sleeps again for each retry or test-mode step. A cancelled or rescheduled email makes the
 * dispatch a no-op ('skipped'); the rescheduling sent its own event.
 */
export function emailDispatchFunctions(getDeps: () => Deps) {
  const dispatch = inngest.createFunction(
    { id: 'email-dispatch', triggers: { event: dueEvent('email-dispatch') }, concurrency: { key: 'event.data.id', limit: 1 } },
    async ({ event, step }) => {
      const id = String((event.data as { id?: string }).id ?? '');
      const due = await step.run('due-at', () => nextAttemptAtOf(getDeps(), id));
      if (due) await step.sleepUntil('wait-0', due);
      let result = await step.run('dispatch-0', () => dispatchEmail(getDeps(), id));
      for (let i = 1; result.nextAttemptAt && i < MAX_STEPS; i += 1) {
        await step.sleepUntil(`wait-${i}`, result.nextAttemptAt);
        result = await step.run(`dispatch-${i}`, () => dispatchEmail(getDeps(), id));
      }
      return { id, outcome: result.outcome };
    },
  );
  const sweep = inngest.createFunction(
    { id: 'email-dispatch-sweep', triggers: { cron: '* * * * *' } },
    async ({ step }) => step.run('sweep', () => sweepEmailDispatch(getDeps())),
  );
  return [dispatch, sweep];
}
