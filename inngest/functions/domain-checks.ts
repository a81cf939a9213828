import type { Deps } from '@/server/deps';
import { checkDomain, sweepDomainChecks } from '@/server/services/domains/verification';
import { dueEvent, inngest } from '../client';

/** "Verify now" and registration wake a check at once; the minute cron runs the polling schedule the rows hold. */
export function domainCheckFunctions(getDeps: () => Deps) {
  const check = inngest.createFunction(
    { id: 'domain-check', triggers: { event: dueEvent('domain-check') }, concurrency: { key: 'event.data.id', limit: 1 } },
    async ({ event, step }) => {
      const id = String((event.data as { id?: string }).id ?? '');
      return { id, outcome: await step.run('check-dns', () => checkDomain(getDeps(), id)) };
    },
  );
  const sweep = inngest.createFunction(
    { id: 'domain-check-sweep', triggers: { cron: '* * * * *' } },
    async ({ step }) => ({ checked: await step.run('sweep', () => sweepDomainChecks(getDeps())) }),
  );
  return [check, sweep];
}
