'use client';

import { ErrorAlert } from '../../../components/error-alert';
import { RetryButton } from '../../../components/retry-button';
import { describeError } from '../../../lib/errors';
import { BackToBroadcasts } from '../back-to-broadcasts';
import { isEditable } from '../statuses';
import { BroadcastComposer } from './broadcast-composer';
import { BroadcastDetail } from './broadcast-detail';
import { BroadcastNotFound } from './broadcast-not-found';
import { BroadcastSkeleton } from './broadcast-skeleton';
import { useBroadcast } from './use-broadcast';

/**
 * One broadcast: the composer while it can still change (draft, scheduled), its progress once
 * sending has started. The page turns from one to the other by itself when a schedule comes due.
 */
export function BroadcastPageView({ id }: { id: string }) {
  const query = useBroadcast(id);

  // Once loaded, the page stays through a failed background refetch: unsaved edits are not dropped.
  if (query.data) {
    return isEditable(query.data.status) ? <BroadcastComposer key={query.data.id} broadcast={query.data} /> : <BroadcastDetail broadcast={query.data} refreshing={query.isFetching} />;
  }
  if (query.isPending) return <BroadcastSkeleton />;

  const { code } = describeError(query.error);
  if (code === 'NOT_FOUND' || code === 'VALIDATION_ERROR') return <BroadcastNotFound />;
  return (
    <div className="space-y-4">
      <BackToBroadcasts />
      <ErrorAlert error={query.error} fallbackTitle="Could not load this broadcast" action={<RetryButton query={query} />} />
    </div>
  );
}
