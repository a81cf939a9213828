'use client';

import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { formatCount } from '../lib/format';
import { useTRPC } from '../lib/trpc';
import { UsageMeter } from './billing/usage-meter';
import { useUsage } from './billing/use-usage';
import { OrganizationSwitcher } from './organization-switcher';
import { OwnerConfirmedLine } from './owner-confirmation-banner';
import { ROLE_LABELS } from './team/role-words';

/** The plan and this month's emails against its quota, linking to the billing page. */
function MonthToDate({ plan: fallback }: { plan: { label: string; monthlyEmails: number } }) {
  const usage = useUsage();
  if (usage.isPending) return <div className="mt-1 h-11 animate-pulse rounded bg-slate-200" />;
  // The sidebar is no place for an error (the billing page shows it): the plan alone, as before.
  if (usage.isError) {
    return (
      <p className="text-xs text-slate-500">
        {fallback.label} plan · {formatCount(fallback.monthlyEmails)} emails/month
      </p>
    );
  }
  const { plan, month } = usage.data;
  return (
    <Link href="/billing" className="group -mx-1 mt-0.5 block rounded px-1 py-0.5 text-xs hover:bg-slate-100" data-testid="sidebar-usage">
      <p className="truncate text-slate-500 group-hover:text-slate-700">{plan.label} plan</p>
      <div className="my-1.5">
        <UsageMeter label="Emails this month" used={month.emails} limit={month.quota} unit="emails" size="sm" />
      </div>
      <p className="text-slate-500 tabular-nums group-hover:text-slate-700">
        {formatCount(month.emails)} / {formatCount(month.quota)} this month
      </p>
    </Link>
  );
}

/** The organization the signed-in person acts for (and the others they may switch to), their role, its plan, and how much of the month's quota is used. */
export function OrganizationBadge() {
  const trpc = useTRPC();
  const { data, isPending, isError } = useQuery(trpc.organization.current.queryOptions({}));
  if (isError) return null;
  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2" data-testid="organization-badge">
      {isPending ? (
        <div className="h-9 animate-pulse rounded bg-slate-200" />
      ) : (
        <>
          <p className="truncate text-sm font-medium text-slate-900">{data.name}</p>
          {data.role && (
            <p className="text-xs text-slate-500" data-testid="organization-role">
              {ROLE_LABELS[data.role]}
            </p>
          )}
          <OrganizationSwitcher currentId={data.id} />
          {data.owner.confirmedAt && <OwnerConfirmedLine email={data.owner.email} />}
          <MonthToDate plan={data.plan} />
        </>
      )}
    </div>
  );
}
