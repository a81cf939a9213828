'use client';

import { useMutation } from '@tanstack/react-query';
import { SendIcon } from 'lucide-react';
import { Button } from '../../../components/button';
import { ErrorAlert } from '../../../components/error-alert';
import { useTRPC } from '../../../lib/trpc';
import { useInvalidateWebhooks } from '../use-invalidate-webhooks';
import { AttemptOutcome } from './attempt-outcome';
import { MayCall } from '../../../components/may-call';

/** A signed webhook.test event sent now, and what the endpoint answered: the quickest check of a receiver. */
function TestEventSectionShown({ webhookId }: { webhookId: string }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateWebhooks();
  // The ping is kept as a delivery and counts in the health: both lists change.
  const test = useMutation(trpc.webhooks.test.mutationOptions({ onSuccess: () => void invalidate() }));

  return (
    <section aria-labelledby="test-event-heading" className="flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="test-event">
      <h2 id="test-event-heading" className="text-base font-semibold text-slate-900">
        Send a test event
      </h2>
      <p className="mt-1 text-sm text-slate-500">
        Sends a signed <code className="font-mono text-xs text-slate-700">webhook.test</code> event to this endpoint only, now, and shows what it
        answered.
      </p>
      <div className="mt-4 space-y-3" aria-live="polite">
        {test.data && !test.isPending && <AttemptOutcome outcome={test.data} />}
        {test.error && <ErrorAlert error={test.error} fallbackTitle="Could not send the test event" />}
      </div>
      <div className="mt-4">
        <Button variant="secondary" size="sm" onClick={() => test.mutate({ id: webhookId })} loading={test.isPending}>
          {!test.isPending && <SendIcon className="size-4" />}
          Send test event
        </Button>
      </div>
    </section>
  );
}

/** Only for a role that may send a test event. */
export function TestEventSection(props: { webhookId: string }) {
  return (
    <MayCall procedure="webhooks.test">
      <TestEventSectionShown {...props} />
    </MayCall>
  );
}
