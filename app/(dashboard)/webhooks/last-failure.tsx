import { RelativeTime } from '../../components/relative-time';
import type { WebhookHealth } from './types';

/** When an attempt last failed in the last 24 hours, and what it got. */
export function LastFailure({ health }: { health: WebhookHealth }) {
  if (!health.lastFailureAt) return <span className="text-slate-400">None</span>;
  return (
    <div className="min-w-0" data-testid="webhook-last-failure">
      <RelativeTime iso={health.lastFailureAt} className="text-slate-700" />
      {health.lastFailure && (
        <p className="line-clamp-2 text-xs break-words text-red-700" title={health.lastFailure}>
          {health.lastFailure}
        </p>
      )}
    </div>
  );
}
