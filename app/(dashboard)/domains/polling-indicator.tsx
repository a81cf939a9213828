import { Spinner } from '../../components/spinner';

/** Shown while a verification chain is polling the domain's DNS. */
export function PollingIndicator() {
  return (
    <span data-testid="polling-indicator" className="inline-flex items-center gap-1.5 text-xs whitespace-nowrap text-slate-500">
      <Spinner className="size-3.5 text-indigo-500" />
      Checking DNS…
    </span>
  );
}
