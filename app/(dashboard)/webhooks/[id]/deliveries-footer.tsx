import { Button } from '../../../components/button';

/** Under the deliveries: how many are shown, and the next page on demand. */
export function DeliveriesFooter({ shown, hasMore, loading, onLoad }: { shown: number; hasMore: boolean; loading: boolean; onLoad: () => void }) {
  return (
    <div className="mt-4 flex flex-col items-center gap-2 text-sm text-slate-500 sm:flex-row sm:justify-between" data-testid="deliveries-footer">
      <p aria-live="polite" data-testid="deliveries-count">
        {shown === 1 ? '1 delivery' : `${shown} deliveries`}
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
