'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { Skeleton } from '../../components/skeleton';
import { formatDate } from '../../lib/format';
import { useTRPC } from '../../lib/trpc';
import { SectionCard } from './section-card';

const money = (cents: number, currency: string) => new Intl.NumberFormat('en-IE', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);

/**
 * With Stripe, for the owner and billing members: the organization's invoices (number, period,
 * amount, status, PDF) and a link to Stripe's customer portal for the payment method, billing
 * address and VAT number. Hidden without a payment provider.
 */
export function InvoicesSection() {
  const trpc = useTRPC();
  const state = useQuery(trpc.organization.paymentState.queryOptions({}));
  const invoices = useQuery(trpc.billing.invoices.queryOptions({}, { enabled: state.data?.provider === 'stripe' }));
  const portal = useMutation(trpc.billing.portal.mutationOptions({ onSuccess: ({ url }) => window.location.assign(url) }));
  if (state.data?.provider !== 'stripe') return null;
  const hasCustomer = (invoices.data?.length ?? 0) > 0 || state.data.subscription !== null;
  return (
    <SectionCard
      id="invoices"
      title="Invoices and payment"
      testId="invoices"
      description="Invoices from Stripe, with VAT as it applies. Change the payment method, billing address or VAT number in Stripe's customer portal."
      action={
        hasCustomer && (
          <Button variant="secondary" size="sm" onClick={() => portal.mutate({})} disabled={portal.isPending} data-testid="customer-portal">
            Manage payment method
          </Button>
        )
      }
    >
      {portal.error && <ErrorAlert error={portal.error} fallbackTitle="Could not open the customer portal" />}
      {invoices.isPending && <Skeleton className="mt-4 h-16 w-full" />}
      {invoices.isError && <ErrorAlert error={invoices.error} fallbackTitle="Could not load your invoices" />}
      {invoices.data && invoices.data.length === 0 && <p className="mt-4 text-sm text-slate-500">No invoices yet: your first one comes with your first paid plan.</p>}
      {invoices.data && invoices.data.length > 0 && (
        <table className="mt-4 w-full text-left text-sm">
          <thead className="text-xs text-slate-500">
            <tr>
              <th className="py-2 pr-4 font-medium">Number</th>
              <th className="py-2 pr-4 font-medium">Period</th>
              <th className="py-2 pr-6 text-right font-medium">Amount</th>
              <th className="py-2 pr-4 font-medium">Status</th>
              <th className="py-2 pr-4 font-medium">
                <span className="sr-only">PDF</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {invoices.data.map((invoice) => (
              <tr key={invoice.id} data-testid="invoice-row">
                <td className="py-2 pr-4 font-medium text-slate-900">{invoice.number ?? '—'}</td>
                <td className="py-2 pr-4 text-slate-600">
                  {invoice.periodStart ? formatDate(invoice.periodStart) : '—'} – {invoice.periodEnd ? formatDate(invoice.periodEnd) : '—'}
                </td>
                <td className="py-2 pr-6 text-right text-slate-900 tabular-nums">{money(invoice.status === 'paid' ? invoice.amountPaidCents : invoice.amountDueCents, invoice.currency)}</td>
                <td className="py-2 pr-4 text-slate-600">{invoice.status ?? '—'}</td>
                <td className="py-2 text-right">
                  {invoice.pdfUrl && (
                    <a className="text-sky-700 hover:underline" href={invoice.pdfUrl} target="_blank" rel="noreferrer">
                      PDF
                    </a>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </SectionCard>
  );
}
