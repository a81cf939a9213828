import type { Deps } from '@/server/deps';
import { deliverSystemEmail, sweepSystemEmails } from '@/server/services/system-mail/queue';
import { dueEvent, inngest } from '../client';

export function systemMailFunctions(getDeps: () => Deps) {
  const deliver = inngest.createFunction(
    { id: 'system-mail-deliver', triggers: { event: dueEvent('system-mail') }, retries: 5 },
    async ({ event, step }) => {
      const id = String((event.data as { id?: string }).id ?? '');
      const outcome = await step.run('deliver', () => deliverSystemEmail(getDeps(), id));
      if (outcome === 'retry') throw new Error(`system email ${id} was not accepted yet`);
      return { id, outcome };
    },
  );
  const sweep = inngest.createFunction(
    { id: 'system-mail-sweep', triggers: { cron: '*/5 * * * *' } },
    async ({ step }) => ({ sent: await step.run('sweep', () => sweepSystemEmails(getDeps())) }),
  );
  return [deliver, sweep];
}
