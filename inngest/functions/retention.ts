import type { Deps } from '@/server/deps';
import { applyRetention } from '@/server/services/emails/retention';
import { inngest } from '../client';

/** Hourly: emails past their plan's log retention, attachment contents past 30 days and audit rows past 400 days are deleted. */
export function retentionFunctions(getDeps: () => Deps) {
  return [inngest.createFunction({ id: 'retention', triggers: { cron: '17 * * * *' } }, async ({ step }) => step.run('apply-retention', () => applyRetention(getDeps())))];
}
