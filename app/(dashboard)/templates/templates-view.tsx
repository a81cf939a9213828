'use client';

import Link from 'next/link';
import { PlusIcon } from 'lucide-react';
import { Button, buttonClasses } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { LoadMoreFooter } from '../../components/load-more-footer';
import { PageHeader } from '../../components/page-header';
import { countOf } from '../../lib/format';
import { TemplateRow } from './template-row';
import { TemplateSkeletonRows } from './template-skeleton-rows';
import { TemplatesEmpty } from './templates-empty';
import { TemplatesTable } from './templates-table';
import { useTemplates } from './use-templates';

export function TemplatesView() {
  const { query, templates } = useTemplates();
  const refreshing = query.isRefetching && !query.isFetchingNextPage;

  const newButton = (
    <Link href="/templates/new" className={buttonClasses()}>
      <PlusIcon className="size-4" />
      New template
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
        title="Templates"
        description="Subjects and bodies with {{ variables }} that you write once and send with a template_id, newest first."
        actions={templates && templates.length > 0 ? newButton : undefined}
      />

      {query.isPending && (
        <TemplatesTable busy>
          <TemplateSkeletonRows />
        </TemplatesTable>
      )}

      {query.isError && !templates && <ErrorAlert error={query.error} fallbackTitle="Could not load your templates" action={retry} />}

      {templates?.length === 0 && <TemplatesEmpty action={newButton} />}

      {templates && templates.length > 0 && (
        <>
          <TemplatesTable busy={refreshing}>
            {templates.map((template) => (
              <TemplateRow key={template.id} template={template} />
            ))}
            {query.isFetchingNextPage && <TemplateSkeletonRows count={2} />}
          </TemplatesTable>
          {query.isError && (
            <div className="mt-4">
              <ErrorAlert error={query.error} fallbackTitle={query.isFetchNextPageError ? 'Could not load more templates' : 'Could not refresh the list'} action={retry} />
            </div>
          )}
          <LoadMoreFooter
            count={countOf(templates.length, 'template')}
            testId="templates-footer"
            countTestId="templates-count"
            hasMore={query.hasNextPage}
            loading={query.isFetchingNextPage}
            onLoad={() => void query.fetchNextPage()}
          />
        </>
      )}
    </>
  );
}
