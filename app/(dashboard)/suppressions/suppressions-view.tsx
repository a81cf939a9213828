'use client';

import { useState } from 'react';
import { SUPPRESSION_LIMITS } from '@/server/services/suppressions/limits';
import { PlusIcon } from 'lucide-react';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { isRefreshing, PagedListFooter } from '../../components/paged-list';
import { RetryButton } from '../../components/retry-button';
import { SearchBox } from '../../components/search-box';
import { countOf } from '../../lib/format';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { GatedActions } from '../create-gate/gated-actions';
import { useCreateGate } from '../create-gate/use-create-gate';
import { AddSuppressionsDialog } from './add-suppressions-dialog';
import { ExportButton } from './export-button';
import { ReasonFilter } from './reason-filter';
import type { SuppressionReason } from './reasons';
import { RemoveSuppressionDialog } from './remove-suppression-dialog';
import { SuppressionRow } from './suppression-row';
import { SuppressionSkeletonRows } from './suppression-skeleton-rows';
import { SuppressionsEmpty } from './suppressions-empty';
import { SuppressionsIntro } from './suppressions-intro';
import { SuppressionsTable } from './suppressions-table';
import type { Suppression } from './types';
import { useSuppressions } from './use-suppressions';

/** The suppression list: searched, filtered by reason, paged, added to, exported, and trimmed one address at a time. */
export function SuppressionsView() {
  const [searchText, setSearchText] = useState('');
  const [reason, setReason] = useState<SuppressionReason | undefined>(undefined);
  const search = useDebouncedValue(searchText.trim(), 300);
  const { query, suppressions } = useSuppressions({ search, reason });
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Suppression | null>(null);
  const filtered = search !== '' || reason !== undefined;
  const refreshing = isRefreshing(query);
  // Nothing on the list at all: the empty state says so instead of a toolbar over nothing.
  const empty = !filtered && suppressions?.length === 0;

  const gate = useCreateGate({ procedure: 'suppressions.create', liveOnly: 'The suppression list is shared by Live and Test mode: add to it in Live.' });

  const addButton = (
    <Button onClick={() => setAdding(true)} disabled={gate.disabled} aria-describedby={gate.noteId}>
      <PlusIcon className="size-4" />
      Add addresses
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Suppressions"
        description={<SuppressionsIntro />}
        actions={
          suppressions && !empty ? (
            <GatedActions gate={gate}>
              <ExportButton />
              {addButton}
            </GatedActions>
          ) : undefined
        }
      />

      {!empty && (
        <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-start">
          <SearchBox value={searchText} onChange={setSearchText} searching={query.isFetching && search !== ''} maxLength={SUPPRESSION_LIMITS.searchChars} />
          <ReasonFilter value={reason} onChange={setReason} />
        </div>
      )}

      {query.isPending && (
        <SuppressionsTable busy>
          <SuppressionSkeletonRows />
        </SuppressionsTable>
      )}

      {query.isError && !suppressions && <ErrorAlert error={query.error} fallbackTitle="Could not load the suppression list" action={<RetryButton query={query} />} />}

      {suppressions?.length === 0 && (
        <SuppressionsEmpty
          filtered={filtered}
          action={
            <GatedActions gate={gate} align="center">
              {addButton}
            </GatedActions>
          }
        />
      )}

      {suppressions && suppressions.length > 0 && (
        <>
          <SuppressionsTable busy={refreshing}>
            {suppressions.map((suppression) => (
              <SuppressionRow key={suppression.id} suppression={suppression} onRemove={() => setRemoving(suppression)} />
            ))}
            {query.isFetchingNextPage && <SuppressionSkeletonRows count={2} />}
          </SuppressionsTable>
          <PagedListFooter
            count={countOf(suppressions.length, 'address', 'addresses')}
            testId="suppressions-footer"
            countTestId="suppressions-shown"
            query={query}
            failure={{ more: 'Could not load more addresses', refresh: 'Could not refresh the list' }}
          />
        </>
      )}

      <AddSuppressionsDialog open={adding} onClose={() => setAdding(false)} />
      {removing && <RemoveSuppressionDialog suppression={removing} onClose={() => setRemoving(null)} />}
    </>
  );
}
