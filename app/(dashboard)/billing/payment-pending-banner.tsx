'use client';

import { useQuery } from '@tanstack/react-query';
import { HourglassIcon } from 'lucide-react';
import { Alert } from '../../components/alert';
import { formatDateTime } from '../../lib/format';
import { useTRPC } from '../../lib/trpc';
import type { Usage } from './types';

/**
 * A payment Stripe is still collecting (a SEPA debit takes a few days): the plan paid for is not
 * in force until it clears. Also shown, briefly, after returning from Checkout (`?checkout=`)
 * before Stripe's webhook has arrived, so the page does not look as if nothing happened.
 */
export function PaymentPendingBanner({ usage }: { usage: Usage }) {
  const trpc = useTRPC();
  const returned = typeof window !== 'undefined' && /[?&]checkout=cs_/.test(window.location.search);
  // Just back from Checkout and still on Free: ask again every few seconds until the new plan or
  // the pending payment shows (the usage query is the page's own, so the page updates with it).
  const waiting = returned && usage.plan.id === 'free';
  const state = useQuery(trpc.organization.paymentState.queryOptions({}, { refetchInterval: (query) => (waiting && !query.state.data?.paymentPending ? 3_000 : false) }));
  useQuery(trpc.usage.current.queryOptions({}, { refetchInterval: waiting && !state.data?.paymentPending ? 3_000 : false }));
  const pending = state.data?.paymentPending;
  if (pending) {
    return (
      <Alert tone="info" icon={<HourglassIcon className="mt-0.5 size-4 shrink-0" />} title={`Payment for ${pending.label} pending`}>
        <span data-testid="payment-pending" data-plan={pending.plan}>
          Your payment{pending.since ? ` of ${formatDateTime(pending.since)}` : ''} is still being processed (a bank debit can take a few days). {usage.plan.label} and
          its limits stay in force until it clears; the plan then changes on its own.
        </span>
      </Alert>
    );
  }
  if (waiting && state.data?.provider === 'stripe') {
    return (
      <Alert tone="info" icon={<HourglassIcon className="mt-0.5 size-4 shrink-0" />} title="Confirming your payment">
        <span data-testid="payment-confirming">Stripe is confirming the payment; the new plan shows here as soon as it does, usually within seconds.</span>
      </Alert>
    );
  }
  return null;
}
