import { validationError } from '../../errors';
import { PLAN_IDS, PLANS, type Plan, type PlanId } from './plan-table';

export { PLAN_IDS, PLANS, type Plan, type PlanId } from './plan-table';

export const RATE_LIMIT_WINDOW_MS = 10_000;

export function planOf(id: string): Plan {
  const found = PLANS[id as PlanId];
  if (!found) throw validationError(`unknown plan "${id}" (use ${PLAN_IDS.join(', ')})`);
  return found;
}
