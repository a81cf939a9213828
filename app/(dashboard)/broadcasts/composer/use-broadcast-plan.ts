'use client';

import { PLANS, type PlanId } from '@/server/services/plans/plan-table';
import { useUsage } from '../../billing/use-usage';

/**
 * Whether the plan in force sends broadcasts (the plan table's rule, which the server's refusal
 * reads too), and its name; null until the usage is read, when the buttons stay as they are.
 */
export function useBroadcastPlan(): { sends: boolean; planLabel: string } | null {
  // Asked again when the panel opens: the sidebar's answer may be older than a plan change.
  const usage = useUsage({ fresh: true });
  const plan = usage.data ? PLANS[usage.data.plan.id as PlanId] : undefined;
  return plan ? { sends: plan.sendsBroadcasts, planLabel: plan.label } : null;
}
