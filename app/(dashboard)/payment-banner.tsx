'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Alert } from '../components/alert';
import { formatDate } from '../lib/format';
import { useMay } from '../lib/use-role';
import { useTRPC } from '../lib/trpc';

/** On every dashboard page while a renewal is unpaid: until when mail goes on, or that it has stopped, and where to pay. */
export function PaymentBanner() {
  const trpc = useTRPC();
  const organization = useQuery(trpc.organization.current.queryOptions({}));
  // Who may open the payment portal may act on it; everyone else is told who can.
  const pays = useMay('billing.portal');
  const payment = organization.data?.payment;
  if (!payment) return null;
  const who = pays ? '' : ' Ask the owner or a billing member to update it.';
  return (
    <Alert
      className="mb-6"
      tone={payment.restricted ? 'error' : 'warning'}
      title={payment.restricted ? 'Sending is restricted: a renewal is unpaid' : 'A renewal payment failed'}
      action={
        pays ? (
          <Link href="/billing" className="text-sm font-semibold underline">
            Update payment
          </Link>
        ) : undefined
      }
    >
      <p data-testid="payment-banner" data-restricted={payment.restricted}>
        {payment.restricted
          ? `The API refuses new messages until the payment is confirmed; it has been due since ${formatDate(payment.failedAt!)}.`
          : payment.graceUntil
            ? `Mail keeps going until ${formatDate(payment.graceUntil)}; if the renewal is still unpaid then, sending is restricted until it is paid.`
            : 'The renewal is still unpaid.'}
        {who}
      </p>
    </Alert>
  );
}
