'use client';

import { RefreshCwIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../../lib/trpc';
import { BackToBroadcasts } from '../back-to-broadcasts';
import { isCancellable, isDeletable, isLive } from '../statuses';
import type { Broadcast } from '../types';
import { useAudienceNames } from '../use-audience-names';
import { CancelBroadcastDialog } from './cancel-broadcast-dialog';
import { DeleteBroadcastSection } from './delete-broadcast-section';
import { DeliveryProgress } from './delivery-progress';
import { DetailHeader } from './detail-header';
import { MessageSection } from './message-section';
import { StatusNotice } from './status-notice';
import { MayCall } from '../../../components/may-call';

/** A broadcast past its draft: what it is doing, how far it has come, and what can still be done about it. */
export function BroadcastDetail({ broadcast, refreshing }: { broadcast: Broadcast; refreshing: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { names } = useAudienceNames();
  const [cancelling, setCancelling] = useState(false);
  const live = isLive(broadcast.status);

  const actions = (
    <>
      {!live && (
        <Button variant="secondary" onClick={() => void queryClient.invalidateQueries(trpc.broadcasts.get.queryFilter({ id: broadcast.id }))} loading={refreshing}>
          {!refreshing && <RefreshCwIcon className="size-4" />}
          Refresh
        </Button>
      )}
      {isCancellable(broadcast.status) && (
        <MayCall procedure="broadcasts.cancel">
          <Button variant="secondary" className="text-red-700" onClick={() => setCancelling(true)}>
            Cancel broadcast
          </Button>
        </MayCall>
      )}
    </>
  );

  return (
    <div data-testid="broadcast-detail" data-status={broadcast.status}>
      <div className="mb-4">
        <BackToBroadcasts />
      </div>
      <DetailHeader broadcast={broadcast} actions={actions} />
      <div className="space-y-6">
        <StatusNotice broadcast={broadcast} />
        {/* A broadcast cancelled before it started has no progress to show: only its message. */}
        <div className={broadcast.startedAt ? 'grid items-start gap-6 lg:grid-cols-[3fr_2fr]' : undefined}>
          {broadcast.startedAt && <DeliveryProgress broadcast={broadcast} />}
          <MessageSection broadcast={broadcast} audienceName={broadcast.audienceId ? names.get(broadcast.audienceId) : undefined} />
        </div>
        {isDeletable(broadcast.status) && <DeleteBroadcastSection broadcast={broadcast} />}
      </div>
      <CancelBroadcastDialog broadcast={broadcast} open={cancelling} onClose={() => setCancelling(false)} />
    </div>
  );
}
