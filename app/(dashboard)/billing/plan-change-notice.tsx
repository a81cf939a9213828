import { CircleCheckIcon } from 'lucide-react';
import { formatDateTime, formatEur } from '../../lib/format';
import type { PlanChangeResult } from './types';

/** What the last plan change did, in a sentence, under the choice that made it. */
export function PlanChangeNotice({ result }: { result: PlanChangeResult }) {
  const { change, organization, request, payment } = result;
  let sentence: string;
  if (payment?.kind === 'subscription_update') {
    sentence = `Your upgrade is being charged to your saved payment method. You stay on ${organization.plan.label} until the payment succeeds, usually within seconds.`;
  } else if (payment?.kind === 'checkout') {
    sentence = 'Taking you to the payment page…';
  } else if (!change) {
    sentence = `Your request to move to ${request?.label ?? 'a higher plan'} is with the operator. You stay on ${organization.plan.label} until it is approved.`;
  } else if (change.kind === 'upgrade') {
    sentence = `You are on ${organization.plan.label} now. Charged for the rest of the month: ${formatEur(change.proratedChargeEurCents ?? 0)}.`;
  } else if (change.kind === 'downgrade') {
    sentence = `Downgrade to ${organization.pendingPlan?.label ?? 'the new plan'} scheduled for ${formatDateTime(change.effectiveAt)}.`;
  } else if (change.kind === 'cancelled') {
    sentence = `The scheduled downgrade is cancelled: you stay on ${organization.plan.label}.`;
  } else {
    sentence = `You are on ${organization.plan.label} already.`;
  }
  return (
    <p role="status" className="mb-4 flex items-start gap-2 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900" data-testid="plan-change-notice">
      <CircleCheckIcon className="mt-0.5 size-4 shrink-0 text-emerald-600" />
      {sentence}
    </p>
  );
}
