import { Button } from '../../components/button';
import { countOf } from '../../lib/format';

/** Under the list: how many are shown, and the next page on demand. */
export function TemplatesFooter({ shown, hasMore, loading, onLoad }: { shown: number; hasMore: boolean; loading: boolean; onLoad: () => void }) {
  return (
    <div className="mt-4 flex flex-col items-center gap-2 text-sm text-slate-500 sm:flex-row sm:justify-between" data-testid="templates-footer">
      <p aria-live="polite" data-testid="templates-count">
        {countOf(shown, 'template')}
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
