import { Button } from './button';

/** Under a paged list: how many are shown (`count`, already worded), and the next page on demand. */
export function LoadMoreFooter({ count, hasMore, loading, onLoad, testId, countTestId }: {
  count: string;
  hasMore: boolean;
  loading: boolean;
  onLoad: () => void;
  testId: string;
  countTestId: string;
}) {
  return (
    <div className="mt-4 flex flex-col items-center gap-2 text-sm text-slate-500 sm:flex-row sm:justify-between" data-testid={testId}>
      <p aria-live="polite" data-testid={countTestId}>
        {count}
        {hasMore ? ' shown' : ''}
      </p>
      {hasMore && (
        <Button variant="secondary" onClick={onLoad} loading={loading}>
          Load more
        </Button>
      )}
    </div>
  );
}
