import type { ReactNode } from 'react';
import { CalendarClockIcon } from 'lucide-react';
import { Alert } from '../../components/alert';
import { formatDateTime } from '../../lib/format';
import type { Usage } from './types';

/** A downgrade waiting for the next billing month: to what, from when, and (`action`) a way to keep the plan. */
export function PendingChangeBanner({ usage, action }: { usage: Usage; action?: ReactNode }) {
  const pending = usage.pendingPlanChange;
  if (!pending) return null;
  return (
    <Alert tone="info" icon={<CalendarClockIcon className="mt-0.5 size-4 shrink-0" />} title={`Moving to ${pending.label} on ${formatDateTime(pending.effectiveAt)}`} action={action}>
      <span data-testid="pending-plan-change" data-plan={pending.plan} data-effective-at={pending.effectiveAt}>
        Your downgrade from {usage.plan.label} takes effect at the start of the next billing month. Until then {usage.plan.label} and its limits stay in force.
      </span>
    </Alert>
  );
}
