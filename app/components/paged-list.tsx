import { RefreshCwIcon } from 'lucide-react';
import { Button } from './button';
import { ErrorAlert } from './error-alert';
import { RetryButton } from './retry-button';

/** What the controls of a paged list read of its infinite query (TanStack Query's useInfiniteQuery). */
export interface PagedQuery {
  error: unknown;
  isError: boolean;
  isFetching: boolean;
  isRefetching: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  hasNextPage: boolean;
  refetch: () => Promise<unknown>;
  fetchNextPage: () => Promise<unknown>;
}

/** Fetching the pages shown again (not the next one): the table dims while it does. */
export const isRefreshing = (query: PagedQuery) => query.isRefetching && !query.isFetchingNextPage;

/** The list's "Refresh", for the header: the pages shown, fetched again. */
export function RefreshButton({ query }: { query: PagedQuery }) {
  const refreshing = isRefreshing(query);
  return (
    <Button variant="secondary" onClick={() => void query.refetch()} loading={refreshing}>
      {!refreshing && <RefreshCwIcon className="size-4" />}
      Refresh
    </Button>
  );
}

/**
 * Under the rows of a paged list: a failed refresh or next page with its "Try again", how many
 * are shown (`count`, already worded), and the next page on demand.
 */
export function PagedListFooter({ query, count, failure, testId, countTestId }: {
  query: PagedQuery;
  count: string;
  /** The alert's title when the next page failed (`more`) or the pages shown did (`refresh`). */
  failure: { more: string; refresh: string };
  testId: string;
  countTestId: string;
}) {
  return (
    <>
      {query.isError && (
        <div className="mt-4">
          <ErrorAlert error={query.error} fallbackTitle={query.isFetchNextPageError ? failure.more : failure.refresh} action={<RetryButton query={query} />} />
        </div>
      )}
      <div className="mt-4 flex flex-col items-center gap-2 text-sm text-slate-500 sm:flex-row sm:justify-between" data-testid={testId}>
        <p aria-live="polite" data-testid={countTestId}>
          {count}
          {query.hasNextPage ? ' shown' : ''}
        </p>
        {query.hasNextPage && (
          <Button variant="secondary" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
            Load more
          </Button>
        )}
      </div>
    </>
  );
}
