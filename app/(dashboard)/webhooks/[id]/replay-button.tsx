'use client';

import { useMutation } from '@tanstack/react-query';
import { RotateCcwIcon } from 'lucide-react';
import { Button } from '../../../components/button';
import { ErrorAlert } from '../../../components/error-alert';
import { RelativeTime } from '../../../components/relative-time';
import { useTRPC } from '../../../lib/trpc';
import type { DeliveryDetail } from '../types';
import { useInvalidateWebhooks } from '../use-invalidate-webhooks';
import { AttemptOutcome } from './attempt-outcome';
import { MayCall } from '../../../components/may-call';

/**
 * Send the delivery's event again now (same webhook-id, fresh signature). A pending delivery is
 * left to its scheduled retries, as the server requires, so the button waits until it settles.
 */
function ReplayButtonShown({ webhookId, delivery }: { webhookId: string; delivery: DeliveryDetail }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateWebhooks();
  const replay = useMutation(trpc.webhooks.replay.mutationOptions({ onSuccess: () => void invalidate() }));
  const pending = delivery.status === 'pending';

  return (
    <div className="space-y-2" data-testid="replay">
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="secondary"
          size="sm"
          disabled={pending}
          loading={replay.isPending}
          aria-describedby={pending ? `replay-pending-${delivery.id}` : undefined}
          onClick={() => replay.mutate({ id: webhookId, deliveryId: delivery.id })}
        >
          {!replay.isPending && <RotateCcwIcon className="size-4" />}
          Replay
        </Button>
        {pending && (
          <p id={`replay-pending-${delivery.id}`} className="text-xs text-slate-500" data-testid="replay-pending-note">
            Still being retried
            {delivery.nextAttemptAt && (
              <>
                {' '}
                (next attempt <RelativeTime iso={delivery.nextAttemptAt} future />)
              </>
            )}
            : replay it once it has succeeded or failed.
          </p>
        )}
      </div>
      {replay.data && !replay.isPending && <AttemptOutcome outcome={replay.data} />}
      {replay.error && <ErrorAlert error={replay.error} fallbackTitle="Could not replay the delivery" />}
    </div>
  );
}

/** Only for a role that may replay. */
export function ReplayButton(props: { webhookId: string; delivery: DeliveryDetail }) {
  return (
    <MayCall procedure="webhooks.replay">
      <ReplayButtonShown {...props} />
    </MayCall>
  );
}
