'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatCount } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import type { Broadcast } from '../types';

/** Stops a scheduled, sending or held broadcast for good, after saying what happens to the messages already on their way. */
export function CancelBroadcastDialog({ broadcast, open, onClose }: { broadcast: Broadcast; open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cancel = useMutation(
    trpc.broadcasts.cancel.mutationOptions({
      onSuccess: (cancelled) => {
        queryClient.setQueryData(trpc.broadcasts.get.queryKey({ id: cancelled.id }), cancelled);
        void queryClient.invalidateQueries(trpc.broadcasts.list.pathFilter());
        onClose();
      },
    }),
  );
  const close = () => {
    if (cancel.isPending) return;
    cancel.reset();
    onClose();
  };
  const started = broadcast.status !== 'scheduled';

  return (
    <ConfirmDialog
      open={open}
      onClose={close}
      title="Cancel the broadcast?"
      testId="cancel-broadcast-dialog"
      description={
        <>
          <strong className="font-semibold break-all text-slate-700">{broadcast.name}</strong> stops for good; it cannot be resumed or sent again.
        </>
      }
      confirmLabel="Cancel broadcast"
      onConfirm={() => cancel.mutate({ id: broadcast.id })}
      pending={cancel.isPending}
      error={cancel.error}
      errorTitle="Could not cancel the broadcast"
    >
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-600">
        {started ? (
          <>
            <li>Contacts not reached yet get nothing.</li>
            <li>Queued messages that delivery has not taken yet are withdrawn; the {formatCount(broadcast.counts.sent)} already sent stay sent.</li>
          </>
        ) : (
          <li>Nothing has been sent: no contact gets it.</li>
        )}
        <li>A cancelled broadcast can be deleted afterwards.</li>
      </ul>
    </ConfirmDialog>
  );
}
