'use client';

import { CardSection } from '../../../components/card-section';
import { DataTable } from '../../../components/data-table';
import { ErrorAlert } from '../../../components/error-alert';
import { isRefreshing, PagedListFooter } from '../../../components/paged-list';
import { RetryButton } from '../../../components/retry-button';
import { countOf } from '../../../lib/format';
import { SUBMISSION_COLUMNS, SubmissionRow, SubmissionSkeletonRows } from './submission-row';
import { useFormSubmissions } from './use-form-submissions';

/** A form's accepted submissions, newest first, page after page. */
export function SubmissionsSection({ formId }: { formId: string }) {
  const { query, submissions } = useFormSubmissions(formId);
  return (
    <CardSection testId="form-submissions" title="Submissions" description="Every accepted sign-up, newest first, with the version of the consent text it was shown. Bots caught by the form are not listed.">
      <div className="mt-4">
        {query.isPending && (
          <DataTable label="Submissions" columns={SUBMISSION_COLUMNS} dense busy>
            <SubmissionSkeletonRows />
          </DataTable>
        )}
        {query.isError && !submissions && <ErrorAlert error={query.error} fallbackTitle="Could not load the submissions" action={<RetryButton query={query} />} />}
        {submissions?.length === 0 && <p className="text-sm text-slate-500" data-testid="submissions-empty">No submissions yet. Once the snippet is on a page, sign-ups show here.</p>}
        {submissions && submissions.length > 0 && (
          <>
            <DataTable label="Submissions" columns={SUBMISSION_COLUMNS} dense busy={isRefreshing(query)}>
              {submissions.map((submission) => (
                <SubmissionRow key={submission.id} submission={submission} />
              ))}
              {query.isFetchingNextPage && <SubmissionSkeletonRows />}
            </DataTable>
            <PagedListFooter
              count={countOf(submissions.length, 'submission')}
              testId="submissions-footer"
              countTestId="submissions-count"
              query={query}
              failure={{ more: 'Could not load more submissions', refresh: 'Could not refresh the submissions' }}
            />
          </>
        )}
      </div>
    </CardSection>
  );
}
