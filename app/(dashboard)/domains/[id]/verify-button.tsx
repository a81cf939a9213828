'use client';

import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/button';
import { RefreshCwIcon } from 'lucide-react';
import { describeError } from '../../../lib/errors';
import { useTRPC } from '../../../lib/trpc';
import { MayCall } from '../../../components/may-call';

/** "Verify now": the server reads the DNS at once instead of at the next scheduled check. */
function VerifyButtonShown({ domainId, onStarted }: { domainId: string; onStarted: () => void }) {
  const trpc = useTRPC();
  const [confirmed, setConfirmed] = useState(false);
  const verify = useMutation(
    trpc.domains.verify.mutationOptions({
      onSuccess: () => {
        setConfirmed(true);
        onStarted();
      },
    }),
  );

  useEffect(() => {
    if (!confirmed) return;
    const timer = setTimeout(() => setConfirmed(false), 5000);
    return () => clearTimeout(timer);
  }, [confirmed]);

  return (
    <div className="flex shrink-0 flex-col items-start gap-1.5 sm:items-end">
      <Button onClick={() => verify.mutate({ id: domainId })} loading={verify.isPending}>
        {!verify.isPending && <RefreshCwIcon className="size-4" />}
        Verify now
      </Button>
      <p className="min-h-5 text-sm" aria-live="polite" data-testid="verify-feedback">
        {confirmed && <span className="text-emerald-700">Checking DNS now</span>}
        {verify.isError && <span className="text-red-700">{describeError(verify.error).message}</span>}
      </p>
    </div>
  );
}

/** Only for a role that may start a check. */
export function VerifyButton(props: { domainId: string; onStarted: () => void }) {
  return (
    <MayCall procedure="domains.verify">
      <VerifyButtonShown {...props} />
    </MayCall>
  );
}
