import { Button } from './button';

/** What "Try again" needs of a query (TanStack Query's result); a paged one also says whether its next page failed. */
export interface RetryableQuery {
  isFetching: boolean;
  refetch: () => Promise<unknown>;
  isFetchNextPageError?: boolean;
  fetchNextPage?: () => Promise<unknown>;
}

/** "Try again" beside a failed load: the next page when that is what failed, else the query again. */
export function RetryButton({ query }: { query: RetryableQuery }) {
  const retry = () => (query.isFetchNextPageError && query.fetchNextPage ? query.fetchNextPage() : query.refetch());
  return (
    <Button variant="secondary" size="sm" onClick={() => void retry()} loading={query.isFetching}>
      Try again
    </Button>
  );
}
