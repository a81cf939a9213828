'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { ScrollTextIcon } from 'lucide-react';
import { AUDIT_ACTION_GROUPS } from '@/server/vocabulary/audit';
import { EmptyState } from '../../components/empty-state';
import { ErrorAlert } from '../../components/error-alert';
import { SelectField } from '../../components/field';
import { PageHeader } from '../../components/page-header';
import { isRefreshing, PagedListFooter, RefreshButton } from '../../components/paged-list';
import { RetryButton } from '../../components/retry-button';
import { AuditRow } from './audit-row';
import { AuditSkeletonRows, AuditTable } from './audit-table';
import { useAuditLog } from './use-audit-log';
import { GROUP_WORDS, isActionGroup } from './wording';

/** The kind of action shown, in the URL (`/audit-log?kind=api_key`) so a link keeps it. */
function useKindFilter() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const value = searchParams.get('kind');
  const kind = isActionGroup(value) ? value : undefined;
  const setKind = (next: string) => router.push(isActionGroup(next) ? `${pathname}?kind=${next}` : pathname, { scroll: false });
  return { kind, setKind };
}

export function AuditLogView() {
  const { kind, setKind } = useKindFilter();
  const { query, events } = useAuditLog(kind);
  const refreshing = isRefreshing(query);

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who changed what in your organization, when and from which address: API keys, domains, webhooks, audiences and contacts, suppressions, templates, broadcasts, your plan and account, the team, and sign-ins. Kept for 400 days; only the owner and admins can read it."
        actions={events ? <RefreshButton query={query} /> : undefined}
      />

      <div className="mb-4 max-w-60" data-testid="audit-filters">
        <SelectField label="Kind" name="kind" value={kind ?? ''} onChange={(event) => setKind(event.target.value)}>
          <option value="">Everything</option>
          {AUDIT_ACTION_GROUPS.map((group) => (
            <option key={group} value={group}>
              {GROUP_WORDS[group]}
            </option>
          ))}
        </SelectField>
      </div>

      {query.isPending && (
        <AuditTable busy>
          <AuditSkeletonRows />
        </AuditTable>
      )}

      {query.isError && !events && <ErrorAlert error={query.error} fallbackTitle="Could not load the audit log" action={<RetryButton query={query} />} />}

      {events?.length === 0 && (
        <EmptyState testId="audit-empty" icon={<ScrollTextIcon className="size-6" />} title={kind ? `Nothing recorded for ${GROUP_WORDS[kind].toLowerCase()}` : 'Nothing recorded yet'}>
          Every change made in the dashboard or with an API key, and every sign-in, shows up here as it happens.
        </EmptyState>
      )}

      {events && events.length > 0 && (
        <>
          <AuditTable busy={refreshing}>
            {events.map((event) => (
              <AuditRow key={event.id} event={event} />
            ))}
            {query.isFetchingNextPage && <AuditSkeletonRows count={2} />}
          </AuditTable>
          <PagedListFooter
            count={events.length === 1 ? '1 entry' : `${events.length} entries`}
            testId="audit-footer"
            countTestId="audit-count"
            query={query}
            failure={{ more: 'Could not load more', refresh: 'Could not refresh the log' }}
          />
        </>
      )}
    </>
  );
}
