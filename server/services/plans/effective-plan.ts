import { planOf, type Plan } from './plans';

export interface PlanColumns {
  plan: string;
  pendingPlan: string | null;
  pendingPlanAt: Date | null;
}

/** The plan in force at `now`: a recorded downgrade counts from its time even before it is written over `plan`. */
export function effectivePlan(organization: PlanColumns, now: Date): Plan {
  const due = organization.pendingPlan !== null && organization.pendingPlanAt !== null && organization.pendingPlanAt.getTime() <= now.getTime();
  return planOf(due ? organization.pendingPlan! : organization.plan);
}
