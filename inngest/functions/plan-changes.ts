import type { Deps } from '@/server/deps';
import { applyDuePlanChanges } from '@/server/services/plans/changes';
import { inngest } from '../client';

/** Every minute: downgrades whose billing period has ended are written as the plan (caps already read them as in force). */
export function planChangeFunctions(getDeps: () => Deps) {
  return [inngest.createFunction({ id: 'plan-changes', triggers: { cron: '* * * * *' } }, async ({ step }) => ({ applied: await step.run('apply-due-plan-changes', () => applyDuePlanChanges(getDeps())) }))];
}
