import { FieldError } from '../../../components/field';
import { Skeleton } from '../../../components/skeleton';

/**
 * A composer picker's list while it loads (the outline of its label and field) or when it could
 * not be loaded (why, and Try again); nothing once it is there.
 */
export function PickerLoadState({ query, label, name }: { query: { isPending: boolean; isError: boolean; refetch: () => Promise<unknown> }; label: string; name: string }) {
  if (query.isPending) {
    return (
      <div aria-busy="true" data-testid={`${name}-picker-loading`}>
        <Skeleton className="mb-1.5 h-4 w-20" />
        <Skeleton className="h-9 w-full rounded-md" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div>
        <p className="mb-1.5 text-sm font-medium text-slate-700">{label}</p>
        <FieldError id={`${name}-load-error`}>
          Could not load your {label.toLowerCase()}s.{' '}
          <button type="button" className="font-medium underline" onClick={() => void query.refetch()}>
            Try again
          </button>
        </FieldError>
      </div>
    );
  }
  return null;
}
