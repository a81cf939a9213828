'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CalendarClockIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { ErrorAlert } from '../../../components/error-alert';
import { RelativeTime } from '../../../components/relative-time';
import { formatDateTime } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import type { Broadcast } from '../types';
import { CancelBroadcastDialog } from './cancel-broadcast-dialog';
import { MayCall } from '../../../components/may-call';

/** A scheduled broadcast: when it goes out, and the ways back (to a draft, or cancelled for good). */
export function ScheduledNotice({ broadcast }: { broadcast: Broadcast }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [cancelling, setCancelling] = useState(false);
  const unschedule = useMutation(
    trpc.broadcasts.update.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.broadcasts.get.queryKey({ id: saved.id }), saved);
        void queryClient.invalidateQueries(trpc.broadcasts.list.pathFilter());
      },
    }),
  );
  return (
    <div className="space-y-3 rounded-xl border border-violet-200 bg-violet-50 p-4" data-testid="scheduled-notice">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex gap-3 text-sm text-violet-900">
          <CalendarClockIcon className="mt-0.5 size-5 shrink-0 text-violet-600" />
          <p>
            <span className="font-semibold">Scheduled for {broadcast.scheduledAt ? formatDateTime(broadcast.scheduledAt) : 'later'}</span>
            {broadcast.scheduledAt && (
              <>
                {' '}
                (<RelativeTime iso={broadcast.scheduledAt} future />)
              </>
            )}
            . It goes to the audience&apos;s subscribed contacts at that time; until then you can edit it, move it or take it back.
          </p>
        </div>
        <div className="flex shrink-0 gap-2">
          <MayCall procedure="broadcasts.update">
            <Button variant="secondary" size="sm" loading={unschedule.isPending} onClick={() => unschedule.mutate({ id: broadcast.id, scheduled_at: null })}>
              Back to draft
            </Button>
          </MayCall>
          <MayCall procedure="broadcasts.cancel">
            <Button variant="secondary" size="sm" className="text-red-700" onClick={() => setCancelling(true)}>
              Cancel broadcast
            </Button>
          </MayCall>
        </div>
      </div>
      {unschedule.error ? <ErrorAlert error={unschedule.error} fallbackTitle="Could not take the schedule back" /> : null}
      <CancelBroadcastDialog broadcast={broadcast} open={cancelling} onClose={() => setCancelling(false)} />
    </div>
  );
}
