'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../lib/trpc';

/** The organization the signed-in person acts for, and its plan. */
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
          <p className="text-xs text-slate-500">
            {data.plan.label} plan · {data.plan.monthlyEmails.toLocaleString('en')} emails/month
          </p>
        </>
      )}
    </div>
  );
}
