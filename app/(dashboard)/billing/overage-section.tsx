'use client';

import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { ErrorAlert } from '../../components/error-alert';
import { ToggleSwitch } from '../../components/toggle-switch';
import { formatCount, formatEur } from '../../lib/format';
import { useTRPC } from '../../lib/trpc';
import { SectionCard } from './section-card';
import type { Usage } from './types';
import { useInvalidateBilling } from './use-usage';

function Figure({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId: string }) {
  return (
    <div className="flex items-baseline justify-between gap-3 py-2">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-right">
        <span className="font-medium text-slate-900 tabular-nums" data-testid={testId}>
          {value}
        </span>
        {hint && <span className="ml-1.5 text-slate-500">{hint}</span>}
      </dd>
    </div>
  );
}

/**
 * Metered overage: past the quota, transactional email goes on at the plan's rate per 1,000 up to
 * a stop, instead of stopping at the quota. Off and unavailable on Free.
 */
export function OverageSection({ usage, readOnlyReason }: { usage: Usage; readOnlyReason: string | null }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateBilling();
  const explanationId = useId();
  // Pending until the usage is fetched again, so the switch never flips back for a moment.
  const setOverage = useMutation(trpc.usage.setOverage.mutationOptions({ onSuccess: () => invalidate() }));
  const { overage, plan, month } = usage;
  const enabled = setOverage.isPending && setOverage.variables ? setOverage.variables.enabled : overage.enabled;
  const rate = plan.overagePer1000EurCents;

  const switchControl = (
    <div className="flex items-center gap-3 text-sm font-medium text-slate-700">
      <span data-testid="overage-state">{overage.available && enabled ? 'On' : 'Off'}</span>
      <ToggleSwitch
        label="Metered overage"
        checked={overage.available && enabled}
        onChange={(next) => setOverage.mutate({ enabled: next })}
        disabled={!overage.available || readOnlyReason !== null}
        pending={setOverage.isPending}
        describedBy={explanationId}
      />
    </div>
  );

  return (
    <SectionCard id="overage" title="Metered overage" action={switchControl} testId="overage">
      {!overage.available || rate === null ? (
        <p id={explanationId} className="text-sm text-slate-600" data-testid="overage-unavailable">
          Not available on the {plan.label} plan: sending stops at the monthly quota of {formatCount(month.quota)} emails. On a Production volume you can
          turn it on to keep transactional email going past the quota at a metered rate.{' '}
          <a href="#plans-heading" className="font-medium text-indigo-700 hover:underline">
            Compare the plans
          </a>
        </p>
      ) : (
        <>
          <p id={explanationId} className="text-sm text-slate-600">
            Past the quota of {formatCount(month.quota)} emails, transactional email goes on at {formatEur(rate)} per 1,000 instead of stopping, up to{' '}
            {formatEur(overage.budgetEurCents)} of overage a month: beyond that the next volume up is the cheaper choice, so sending stops. Broadcasts always
            stop at the quota.
          </p>
          <dl className="mt-3 divide-y divide-slate-100 border-t border-slate-100 text-sm">
            <Figure label="Metered this month" value={`${formatCount(overage.emails)} emails`} testId="overage-emails" />
            <Figure label="Cost so far" value={formatEur(overage.costEurCents)} hint={`of at most ${formatEur(overage.budgetEurCents)}`} testId="overage-cost" />
            <Figure
              label="Sending stops at"
              value={`${formatCount(overage.stopsAt)} emails`}
              hint={overage.enabled ? '(quota plus overage)' : '(the quota, while overage is off)'}
              testId="overage-stops-at"
            />
          </dl>
          {!overage.enabled && overage.emails > 0 && (
            <p className="mt-3 text-xs text-slate-500">The emails metered earlier this month are billed although overage is off now.</p>
          )}
        </>
      )}
      {readOnlyReason && overage.available && <p className="mt-3 text-xs text-slate-500">{readOnlyReason}</p>}
      {setOverage.error && (
        <div className="mt-3">
          <ErrorAlert error={setOverage.error} fallbackTitle="Could not change metered overage" />
        </div>
      )}
    </SectionCard>
  );
}
