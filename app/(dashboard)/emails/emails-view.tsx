'use client';

import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { isRefreshing, PagedListFooter, RefreshButton } from '../../components/paged-list';
import { RetryButton } from '../../components/retry-button';
import { useDashboardMode } from '../../lib/dashboard-mode';
import { EmailFiltersBar } from './email-filters';
import { EmailRow } from './email-row';
import { EmailSkeletonRows } from './email-skeleton-rows';
import { EmailsEmpty, EmailsNoMatch } from './emails-empty';
import { EmailsTable } from './emails-table';
import { hasFilters } from './filters';
import { useEmailFilters } from './use-email-filters';
import { useEmailList } from './use-email-list';

export function EmailsView() {
  const { filters, setFilters } = useEmailFilters();
  const mode = useDashboardMode();
  const { query, emails } = useEmailList(filters);
  const filtered = hasFilters(filters);
  const nothingSentYet = !filtered && emails?.length === 0;
  const refreshing = isRefreshing(query);

  return (
    <>
      <PageHeader
        title="Emails"
        description={
          mode === 'live'
            ? 'Every email sent with a live API key, newest first, with its delivery status and events.'
            : 'Test mode: emails sent with a test API key, newest first. They are never delivered; their events are simulated.'
        }
        actions={emails && !nothingSentYet ? <RefreshButton query={query} /> : undefined}
      />

      {!nothingSentYet && <EmailFiltersBar filters={filters} onChange={setFilters} />}

      {query.isPending && (
        <EmailsTable busy>
          <EmailSkeletonRows />
        </EmailsTable>
      )}

      {query.isError && !emails && <ErrorAlert error={query.error} fallbackTitle="Could not load your emails" action={<RetryButton query={query} />} />}

      {nothingSentYet && <EmailsEmpty />}
      {filtered && emails?.length === 0 && <EmailsNoMatch onClear={() => setFilters({})} />}

      {emails && emails.length > 0 && (
        <>
          <EmailsTable busy={refreshing}>
            {emails.map((email) => (
              <EmailRow key={email.id} email={email} />
            ))}
            {query.isFetchingNextPage && <EmailSkeletonRows count={2} />}
          </EmailsTable>
          <PagedListFooter
            count={emails.length === 1 ? '1 email' : `${emails.length} emails`}
            testId="emails-footer"
            countTestId="emails-count"
            query={query}
            failure={{ more: 'Could not load more emails', refresh: 'Could not refresh the list' }}
          />
        </>
      )}
    </>
  );
}
