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
import { FormRow } from './form-row';
import { FormSkeletonRows } from './form-skeleton-rows';
import { FormsEmpty } from './forms-empty';
import { FormsTable } from './forms-table';
import { useForms } from './use-forms';

export function FormsView() {
  const { query, forms } = useForms();
  const gate = useCreateGate({ procedure: 'forms.create', liveOnly: 'Forms add contacts to your audiences: make them in Live.' });
  const newButton = (
    <LinkButton href="/forms/new" disabled={gate.disabled} describedBy={gate.noteId}>
      <PlusIcon className="size-4" />
      New form
    </LinkButton>
  );

  return (
    <>
      <PageHeader
        title="Sign-up forms"
        description="Forms on your own site that add people to an audience, with the consent text they agreed to kept as proof."
        actions={forms && forms.length > 0 ? <GatedActions gate={gate}>{newButton}</GatedActions> : undefined}
      />

      {query.isPending && (
        <FormsTable busy>
          <FormSkeletonRows />
        </FormsTable>
      )}

      {query.isError && !forms && <ErrorAlert error={query.error} fallbackTitle="Could not load your forms" action={<RetryButton query={query} />} />}

      {forms?.length === 0 && (
        <FormsEmpty
          action={
            <GatedActions gate={gate} align="center">
              {newButton}
            </GatedActions>
          }
        />
      )}

      {forms && forms.length > 0 && (
        <>
          <FormsTable busy={isRefreshing(query)}>
            {forms.map((form) => (
              <FormRow key={form.id} form={form} />
            ))}
            {query.isFetchingNextPage && <FormSkeletonRows />}
          </FormsTable>
          <PagedListFooter
            count={countOf(forms.length, 'form')}
            testId="forms-footer"
            countTestId="forms-count"
            query={query}
            failure={{ more: 'Could not load more forms', refresh: 'Could not refresh the list' }}
          />
        </>
      )}
    </>
  );
}
