import { RelativeTime } from '../../../components/relative-time';
import { BroadcastStatusBadge } from '../status-badge';
import type { Broadcast } from '../types';

/** Under the name: the status, and when it was last changed. */
export function ComposerFacts({ broadcast }: { broadcast: Broadcast }) {
  return (
    <span className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1">
      <BroadcastStatusBadge status={broadcast.status} />
      <span>
        Edited <RelativeTime iso={broadcast.updatedAt} />
      </span>
    </span>
  );
}
