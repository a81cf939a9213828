'use client';

import { PlusIcon } from 'lucide-react';
import { ErrorAlert } from '../../components/error-alert';
import { LinkButton } from '../../components/link-button';
import { PageHeader } from '../../components/page-header';
import { isRefreshing, PagedListFooter } from '../../components/paged-list';
import { RetryButton } from '../../components/retry-button';
import { countOf } from '../../lib/format';
import { GatedActions } from '../create-gate/gated-actions';
import { useCreateGate } from '../create-gate/use-create-gate';
import { BroadcastRow } from './broadcast-row';
import { BroadcastSkeletonRows } from './broadcast-skeleton-rows';
import { BroadcastsEmpty } from './broadcasts-empty';
import { BroadcastsTable } from './broadcasts-table';
import { useAudienceNames } from './use-audience-names';
import { useBroadcasts } from './use-broadcasts';

export function BroadcastsView() {
  const { query, broadcasts } = useBroadcasts();
  const { names } = useAudienceNames();
  const refreshing = isRefreshing(query);
  const gate = useCreateGate({ procedure: 'broadcasts.create', liveOnly: 'Broadcasts go to the contacts of your audiences: write and send them in Live.' });

  const newButton = (
    <LinkButton href="/broadcasts/new" disabled={gate.disabled} describedBy={gate.noteId}>
      <PlusIcon className="size-4" />
      New broadcast
    </LinkButton>
  );

  return (
    <>
      <PageHeader
        title="Broadcasts"
        description="Messages to a whole audience, sent now or on a schedule, newest first, with how far each has gone."
        actions={broadcasts && broadcasts.length > 0 ? <GatedActions gate={gate}>{newButton}</GatedActions> : undefined}
      />

      {query.isPending && (
        <BroadcastsTable busy>
          <BroadcastSkeletonRows />
        </BroadcastsTable>
      )}

      {query.isError && !broadcasts && <ErrorAlert error={query.error} fallbackTitle="Could not load your broadcasts" action={<RetryButton query={query} />} />}

      {broadcasts?.length === 0 && (
        <BroadcastsEmpty
          action={
            <GatedActions gate={gate} align="center">
              {newButton}
            </GatedActions>
          }
        />
      )}

      {broadcasts && broadcasts.length > 0 && (
        <>
          <BroadcastsTable busy={refreshing}>
            {broadcasts.map((broadcast) => (
              <BroadcastRow key={broadcast.id} broadcast={broadcast} audienceName={broadcast.audienceId ? names.get(broadcast.audienceId) : undefined} />
            ))}
            {query.isFetchingNextPage && <BroadcastSkeletonRows count={2} />}
          </BroadcastsTable>
          <PagedListFooter
            count={countOf(broadcasts.length, 'broadcast')}
            testId="broadcasts-footer"
            countTestId="broadcasts-count"
            query={query}
            failure={{ more: 'Could not load more broadcasts', refresh: 'Could not refresh the list' }}
          />
        </>
      )}
    </>
  );
}
