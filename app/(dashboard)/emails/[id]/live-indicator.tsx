import { Spinner } from '../../../components/spinner';

/** Shown while the email is still on its way and the page refetches it. */
export function LiveIndicator() {
  return (
    <span data-testid="live-indicator" className="inline-flex items-center gap-1.5 text-xs whitespace-nowrap text-slate-500">
      <Spinner className="size-3.5 text-indigo-500" />
      Updating
    </span>
  );
}
