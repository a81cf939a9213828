'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { RefreshCwIcon, ScrollTextIcon } from 'lucide-react';
import { AUDIT_ACTION_GROUPS } from '@/server/services/audit/vocabulary';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { ErrorAlert } from '../../components/error-alert';
import { SelectField } from '../../components/field';
import { LoadMoreFooter } from '../../components/load-more-footer';
import { PageHeader } from '../../components/page-header';
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
  const refreshing = query.isRefetching && !query.isFetchingNextPage;

  const retry = (
    <Button variant="secondary" size="sm" onClick={() => void (query.isFetchNextPageError ? query.fetchNextPage() : query.refetch())} loading={query.isFetching}>
      Try again
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who changed what in your organization, when and from which address: API keys, domains, webhooks, your plan and account, and sign-ins. Kept for 400 days; only you, the owner, can read it."
        actions={
          events ? (
            <Button variant="secondary" onClick={() => void query.refetch()} loading={refreshing}>
              {!refreshing && <RefreshCwIcon className="size-4" />}
              Refresh
            </Button>
          ) : undefined
        }
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

      {query.isError && !events && <ErrorAlert error={query.error} fallbackTitle="Could not load the audit log" action={retry} />}

      {events?.length === 0 && (
        <EmptyState testId="audit-empty" icon={<ScrollTextIcon className="size-6" />} title={kind ? `Nothing recorded for ${GROUP_WORDS[kind].toLowerCase()}` : 'Nothing recorded yet'}>
          Changes to API keys, domains, webhooks, your plan and account, and sign-ins show up here as they happen.
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
          {query.isError && (
            <div className="mt-4">
              <ErrorAlert error={query.error} fallbackTitle={query.isFetchNextPageError ? 'Could not load more' : 'Could not refresh the log'} action={retry} />
            </div>
          )}
          <LoadMoreFooter
            count={events.length === 1 ? '1 entry' : `${events.length} entries`}
            testId="audit-footer"
            countTestId="audit-count"
            hasMore={query.hasNextPage}
            loading={query.isFetchingNextPage}
            onLoad={() => void query.fetchNextPage()}
          />
        </>
      )}
    </>
  );
}
