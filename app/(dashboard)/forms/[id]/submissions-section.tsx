'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { Badge, type BadgeTone } from '../../../components/badge';
import { CardSection } from '../../../components/card-section';
import { DataTable } from '../../../components/data-table';
import { ErrorAlert } from '../../../components/error-alert';
import { PagedListFooter } from '../../../components/paged-list';
import { RetryButton } from '../../../components/retry-button';
import { countOf, formatDateTime } from '../../../lib/format';
import { useTRPC, useTRPCClient } from '../../../lib/trpc';
import type { FormSubmission } from '../types';

export const SUBMISSIONS_PAGE_SIZE = 20;

const STATUS: Record<FormSubmission['status'], { tone: BadgeTone; words: string; about: string }> = {
  subscribed: { tone: 'green', words: 'Subscribed', about: 'In the audience, subscribed' },
  awaiting_confirmation: { tone: 'amber', words: 'Awaiting confirmation', about: 'Subscribed once the person confirms from the email' },
  kept_opt_out: { tone: 'muted', words: 'Opted out before', about: 'The address had unsubscribed or is suppressed: a form alone does not undo that' },
};

const columns = ['Email', 'Name', 'Status', 'Consent text', 'Submitted'];

/** A form's accepted submissions, newest first, page after page. */
export function SubmissionsSection({ formId }: { formId: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input = { id: formId, limit: SUBMISSIONS_PAGE_SIZE };
  const query = useInfiniteQuery({
    queryKey: trpc.forms.submissions.infiniteQueryKey(input),
    queryFn: ({ pageParam, signal }) => client.forms.submissions.query({ ...input, cursor: pageParam ?? undefined }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  const rows = query.data?.pages.flatMap((page) => page.data);
  return (
    <CardSection testId="form-submissions" title="Submissions" description="Every accepted sign-up, newest first, with the version of the consent text it was shown. Bots caught by the form are not listed.">
      <div className="mt-4">
        {query.isError && !rows && <ErrorAlert error={query.error} fallbackTitle="Could not load the submissions" action={<RetryButton query={query} />} />}
        {rows?.length === 0 && <p className="text-sm text-slate-500" data-testid="submissions-empty">No submissions yet. Once the snippet is on a page, sign-ups show here.</p>}
        {rows && rows.length > 0 && (
          <>
            <DataTable label="Submissions" columns={columns} dense>
              {rows.map((row) => (
                <tr key={row.id} data-testid="submission-row">
                  <td className="py-2.5 pr-3 pl-5 font-mono text-[13px] text-slate-900">{row.email}</td>
                  <td className="px-3 py-2.5 text-slate-600">{[row.firstName, row.lastName].filter(Boolean).join(' ') || '—'}</td>
                  <td className="px-3 py-2.5" title={STATUS[row.status].about}>
                    <Badge tone={STATUS[row.status].tone}>{STATUS[row.status].words}</Badge>
                  </td>
                  <td className="px-3 py-2.5 text-slate-600">v{row.formVersion}</td>
                  <td className="py-2.5 pr-5 pl-3 whitespace-nowrap text-slate-500">{formatDateTime(row.createdAt)}</td>
                </tr>
              ))}
            </DataTable>
            <div className="mt-3">
              <PagedListFooter
                count={countOf(rows.length, 'submission')}
                testId="submissions-footer"
                countTestId="submissions-count"
                query={query}
                failure={{ more: 'Could not load more submissions', refresh: 'Could not refresh the submissions' }}
              />
            </div>
          </>
        )}
      </div>
    </CardSection>
  );
}
