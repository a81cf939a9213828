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
import { TemplateRow } from './template-row';
import { TemplateSkeletonRows } from './template-skeleton-rows';
import { TemplatesEmpty } from './templates-empty';
import { TemplatesTable } from './templates-table';
import { useTemplates } from './use-templates';

export function TemplatesView() {
  const { query, templates } = useTemplates();
  const refreshing = isRefreshing(query);
  const gate = useCreateGate({ procedure: 'templates.create', liveOnly: 'Templates are shared by Live and Test mode: write them in Live.' });

  const newButton = (
    <LinkButton href="/templates/new" disabled={gate.disabled} describedBy={gate.noteId}>
      <PlusIcon className="size-4" />
      New template
    </LinkButton>
  );

  return (
    <>
      <PageHeader
        title="Templates"
        description="Subjects and bodies with {{ variables }} that you write once and send with a template_id, newest first."
        actions={templates && templates.length > 0 ? <GatedActions gate={gate}>{newButton}</GatedActions> : undefined}
      />

      {query.isPending && (
        <TemplatesTable busy>
          <TemplateSkeletonRows />
        </TemplatesTable>
      )}

      {query.isError && !templates && <ErrorAlert error={query.error} fallbackTitle="Could not load your templates" action={<RetryButton query={query} />} />}

      {templates?.length === 0 && (
        <TemplatesEmpty
          action={
            <GatedActions gate={gate} align="center">
              {newButton}
            </GatedActions>
          }
        />
      )}

      {templates && templates.length > 0 && (
        <>
          <TemplatesTable busy={refreshing}>
            {templates.map((template) => (
              <TemplateRow key={template.id} template={template} />
            ))}
            {query.isFetchingNextPage && <TemplateSkeletonRows count={2} />}
          </TemplatesTable>
          <PagedListFooter
            count={countOf(templates.length, 'template')}
            testId="templates-footer"
            countTestId="templates-count"
            query={query}
            failure={{ more: 'Could not load more templates', refresh: 'Could not refresh the list' }}
          />
        </>
      )}
    </>
  );
}
