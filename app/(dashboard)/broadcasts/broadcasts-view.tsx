'use client';

import Link from 'next/link';
import { PlusIcon } from 'lucide-react';
import { Button, buttonClasses } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { LoadMoreFooter } from '../../components/load-more-footer';
import { PageHeader } from '../../components/page-header';
import { countOf } from '../../lib/format';
import { BroadcastRow } from './broadcast-row';
import { BroadcastSkeletonRows } from './broadcast-skeleton-rows';
import { BroadcastsEmpty } from './broadcasts-empty';
import { BroadcastsTable } from './broadcasts-table';
import { useAudienceNames } from './use-audience-names';
import { useBroadcasts } from './use-broadcasts';

export function BroadcastsView() {
  const { query, broadcasts } = useBroadcasts();
  const { names } = useAudienceNames();
  const refreshing = query.isRefetching && !query.isFetchingNextPage;

  const newButton = (
    <Link href="/broadcasts/new" className={buttonClasses()}>
      <PlusIcon className="size-4" />
      New broadcast
    </Link>
  );

  const retry = (
    <Button variant="secondary" size="sm" onClick={() => void (query.isFetchNextPageError ? query.fetchNextPage() : query.refetch())} loading={query.isFetching}>
      Try again
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Broadcasts"
        description="Messages to a whole audience, sent now or on a schedule, newest first, with how far each has gone."
        actions={broadcasts && broadcasts.length > 0 ? newButton : undefined}
      />

      {query.isPending && (
        <BroadcastsTable busy>
          <BroadcastSkeletonRows />
        </BroadcastsTable>
      )}

      {query.isError && !broadcasts && <ErrorAlert error={query.error} fallbackTitle="Could not load your broadcasts" action={retry} />}

      {broadcasts?.length === 0 && <BroadcastsEmpty action={newButton} />}

      {broadcasts && broadcasts.length > 0 && (
        <>
          <BroadcastsTable busy={refreshing}>
            {broadcasts.map((broadcast) => (
              <BroadcastRow key={broadcast.id} broadcast={broadcast} audienceName={broadcast.audienceId ? names.get(broadcast.audienceId) : undefined} />
            ))}
            {query.isFetchingNextPage && <BroadcastSkeletonRows count={2} />}
          </BroadcastsTable>
          {query.isError && (
            <div className="mt-4">
              <ErrorAlert error={query.error} fallbackTitle={query.isFetchNextPageError ? 'Could not load more broadcasts' : 'Could not refresh the list'} action={retry} />
            </div>
          )}
          <LoadMoreFooter
            count={countOf(broadcasts.length, 'broadcast')}
            testId="broadcasts-footer"
            countTestId="broadcasts-count"
            hasMore={query.hasNextPage}
            loading={query.isFetchingNextPage}
            onLoad={() => void query.fetchNextPage()}
          />
        </>
      )}
    </>
  );
}
