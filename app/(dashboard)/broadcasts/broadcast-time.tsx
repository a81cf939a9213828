import { RelativeTime } from '../../components/relative-time';
import type { BroadcastSummary } from './types';

/** The time that matters for its status: when it goes out, went out, stopped, or was written. */
export function BroadcastTime({ broadcast }: { broadcast: BroadcastSummary }) {
  const { status, scheduledAt, startedAt, sentAt, cancelledAt, updatedAt } = broadcast;
  const [label, iso, future] =
    status === 'scheduled' && scheduledAt
      ? ['Scheduled', scheduledAt, true]
      : status === 'sent' && sentAt
        ? ['Sent', sentAt, false]
        : status === 'cancelled' && cancelledAt
          ? ['Cancelled', cancelledAt, false]
          : (status === 'sending' || status === 'held' || status === 'failed') && startedAt
            ? ['Started', startedAt, false]
            : ['Edited', updatedAt, false];
  return (
    <span className="whitespace-nowrap" data-testid="broadcast-time">
      <span className="text-slate-400">{label} </span>
      <RelativeTime iso={iso} future={future} />
    </span>
  );
}
