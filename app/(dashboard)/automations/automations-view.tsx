'use client';

import { PlusIcon } from 'lucide-react';
import { DataTable } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { LinkButton } from '../../components/link-button';
import { PageHeader } from '../../components/page-header';
import { isRefreshing, PagedListFooter } from '../../components/paged-list';
import { RetryButton } from '../../components/retry-button';
import { SkeletonRows } from '../../components/skeleton-rows';
import { countOf } from '../../lib/format';
import { GatedActions } from '../create-gate/gated-actions';
import { useCreateGate } from '../create-gate/use-create-gate';
import { AutomationRow } from './automation-row';
import { AutomationsEmpty } from './automations-empty';
import { useAutomations } from './use-automations';

const columns = ['Name', 'Status', 'Trigger', { numeric: 'Runs' }, 'Updated', { srOnly: 'Open' }];
const skeleton = (count = 3) => <SkeletonRows testId="automation-skeleton" count={count} cells={['h-4 w-40', 'h-5 w-16 rounded-md', 'h-4 w-48', 'ml-auto h-4 w-16', 'h-4 w-24', 'ml-auto size-5']} />;

export function AutomationsView() {
  const { query, automations } = useAutomations();
  const refreshing = isRefreshing(query);
  const gate = useCreateGate({ procedure: 'automations.create', liveOnly: 'Automations are shared by Live and Test mode: build them in Live.' });

  const newButton = (
    <LinkButton href="/automations/new" disabled={gate.disabled} describedBy={gate.noteId}>
      <PlusIcon className="size-4" />
      New automation
    </LinkButton>
  );

  return (
    <>
      <PageHeader
        title="Automations"
        description="Steps each contact is taken through when a trigger fires: delays, emails, conditions, newest first. Runs shown are those of the mode you are in."
        actions={automations && automations.length > 0 ? <GatedActions gate={gate}>{newButton}</GatedActions> : undefined}
      />

      {query.isPending && (
        <DataTable label="Automations" columns={columns} busy>
          {skeleton()}
        </DataTable>
      )}

      {query.isError && !automations && <ErrorAlert error={query.error} fallbackTitle="Could not load your automations" action={<RetryButton query={query} />} />}

      {automations?.length === 0 && (
        <AutomationsEmpty
          action={
            <GatedActions gate={gate} align="center">
              {newButton}
            </GatedActions>
          }
        />
      )}

      {automations && automations.length > 0 && (
        <>
          <DataTable label="Automations" columns={columns} busy={refreshing}>
            {automations.map((automation) => (
              <AutomationRow key={automation.id} automation={automation} />
            ))}
            {query.isFetchingNextPage && skeleton(2)}
          </DataTable>
          <PagedListFooter
            count={countOf(automations.length, 'automation')}
            testId="automations-footer"
            countTestId="automations-count"
            query={query}
            failure={{ more: 'Could not load more automations', refresh: 'Could not refresh the list' }}
          />
        </>
      )}
    </>
  );
}
