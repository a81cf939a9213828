'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Plan } from '@/server/services/plans/plan-table';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { Skeleton } from '../../components/skeleton';
import { formatCount, formatDateTime, formatEur } from '../../lib/format';
import { useTRPC } from '../../lib/trpc';
import type { PlanChoice } from './plans-table';
import type { PlanChangeResult, Usage } from './types';
import { useInvalidateBilling } from './use-usage';

const priceOf = (plan: Plan) => (plan.priceEurCents === 0 ? 'free' : `${formatEur(plan.priceEurCents)} a month`);

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-2">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-right font-medium text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** The caps the organization is already over on the lower plan: nothing is removed, but nothing more can be added. */
function capsOver(usage: Usage, target: Plan): string[] {
  const over: string[] = [];
  const check = (used: number, limit: number | null, what: string) => {
    if (limit !== null && used > limit) over.push(`${formatCount(used)} ${what} (${target.label} allows ${formatCount(limit)})`);
  };
  check(usage.caps.domains.used, target.domains, 'domains');
  check(usage.caps.webhookEndpoints.used, target.webhookEndpoints, 'webhook endpoints');
  check(usage.caps.contacts.used, target.contacts, 'contacts');
  check(usage.caps.apiKeys.used, target.apiKeys, 'live API keys');
  return over;
}

const TITLES: Record<PlanChoice, (target: Plan) => string> = {
  upgrade: (target) => `Upgrade to ${target.label}?`,
  downgrade: (target) => `Downgrade to ${target.label}?`,
  keep: (target) => `Keep ${target.label}?`,
};

const CONFIRM_LABELS: Record<PlanChoice, (target: Plan, settlement?: string | null) => string> = {
  upgrade: (_target, settlement) => (settlement === 'checkout' ? 'Continue to payment' : settlement === 'subscription_update' ? 'Upgrade and pay' : 'Request upgrade'),
  downgrade: () => 'Schedule downgrade',
  keep: (target) => `Keep ${target.label}`,
};

/**
 * The confirmation of a plan change, with what the server says it will do: an upgrade's prorated
 * charge (in force at once), a downgrade's start (the next UTC month), or a pending downgrade
 * dropped. `onChanged` gets the change as made.
 */
export function ChangePlanDialog({
  usage,
  target,
  choice,
  onClose,
  onChanged,
}: {
  usage: Usage;
  target: Plan;
  choice: PlanChoice;
  onClose: () => void;
  onChanged: (result: PlanChangeResult) => void;
}) {
  const trpc = useTRPC();
  const invalidate = useInvalidateBilling();
  // Always asked afresh: the charge depends on the time left in the month.
  const quote = useQuery(trpc.usage.quotePlanChange.queryOptions({ plan: target.id }, { staleTime: 0, gcTime: 0 }));
  const change = useMutation(
    trpc.organization.changePlan.mutationOptions({
      onSuccess: async (result) => {
        // Stripe Checkout: the plan changes when Stripe says it was paid, after the person returns.
        if (result.payment?.kind === 'checkout') {
          window.location.assign(result.payment.url);
          return;
        }
        await invalidate();
        onChanged(result);
      },
    }),
  );

  const current = usage.plan;
  const pending = usage.pendingPlanChange;
  let body: ReactNode;
  if (quote.isPending) {
    body = (
      <div className="space-y-3 py-2" aria-busy="true">
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-4 w-1/2" />
      </div>
    );
  } else if (quote.isError) {
    body = <ErrorAlert error={quote.error} fallbackTitle="Could not work out this change" />;
  } else if (quote.data.kind === 'upgrade') {
    body = (
      <div>
        <dl className="divide-y divide-slate-100 border-y border-slate-100 text-sm">
          <Fact label="New plan">
            {target.label}: {formatCount(target.monthlyEmails)} emails a month, {priceOf(target)}
          </Fact>
          <Fact label="Takes effect">{quote.data.settlement === 'request' ? 'When your provider approves it' : 'As soon as the payment succeeds'}</Fact>
          <Fact label="Price for the rest of this month" testId="prorated-charge">
            {formatEur(quote.data.proratedChargeEurCents ?? 0)}
          </Fact>
        </dl>
        {quote.data.settlement === 'request' ? (
          <p className="mt-2 text-xs text-slate-500" data-testid="upgrade-is-request">
            This service takes no payments online: your upgrade is sent as a request, and the plan changes once the operator approves it
            and arranges payment with you. Until then {current.label} and its limits stay in force; you can withdraw the request.
            {pending && ` Approval drops the downgrade to ${pending.label} scheduled for ${formatDateTime(pending.effectiveAt)}.`}
          </p>
        ) : (
          <p className="mt-2 text-xs text-slate-500" data-testid="upgrade-is-payment">
            {quote.data.settlement === 'checkout'
              ? 'You continue to a secure payment page (Stripe), where you enter your billing address, VAT number if you have one, and payment method. The subscription renews on the first of each month; VAT is added as it applies.'
              : 'The difference for the rest of this month is invoiced and charged to your saved payment method now.'}{' '}
            {current.label} and its limits stay in force until the payment succeeds; a bank debit can take a few days.
          </p>
        )}
      </div>
    );
  } else if (quote.data.kind === 'downgrade') {
    const over = capsOver(usage, target);
    body = (
      <>
        <div>
          <dl className="divide-y divide-slate-100 border-y border-slate-100 text-sm">
            <Fact label="New plan">
              {target.label}: {formatCount(target.monthlyEmails)} emails a month, {priceOf(target)}
            </Fact>
            <Fact label="Takes effect" testId="downgrade-effective-at">
              {formatDateTime(quote.data.effectiveAt)}
            </Fact>
          </dl>
          <p className="mt-2 text-xs text-slate-500">
            Until then you keep {current.label} and its limits, as paid for this month. You can cancel the change before it starts.
          </p>
        </div>
        {over.length > 0 && (
          <div className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" data-testid="downgrade-over-caps">
            <p className="font-medium">Over the new plan&apos;s caps</p>
            <ul className="mt-1 list-disc pl-5">
              {over.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <p className="mt-1">Nothing is removed: you keep all of them, but cannot add more until you are under the cap.</p>
          </div>
        )}
      </>
    );
  } else if (quote.data.kind === 'cancelled') {
    body = (
      <p className="text-sm text-slate-600">
        The downgrade to {pending?.label ?? 'a lower plan'} scheduled for {pending ? formatDateTime(pending.effectiveAt) : 'next month'} is cancelled.{' '}
        {current.label} stays your plan; nothing else changes.
      </p>
    );
  } else {
    body = <p className="text-sm text-slate-600">You are on {current.label} already: nothing would change.</p>;
  }

  return (
    <ConfirmDialog
      title={TITLES[choice](target)}
      testId="change-plan-dialog"
      description={`You are on ${current.label}.`}
      onClose={onClose}
      confirmLabel={CONFIRM_LABELS[choice](target, quote.data?.settlement)}
      confirmVariant="primary"
      confirmDisabled={!quote.data || quote.data.kind === 'unchanged'}
      onConfirm={() => change.mutate({ plan: target.id })}
      pending={change.isPending}
      error={change.error}
      errorTitle="Could not change the plan"
    >
      {body}
    </ConfirmDialog>
  );
}
