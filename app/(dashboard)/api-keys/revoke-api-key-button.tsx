'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../../components/error-alert';
import type { ApiKey } from './types';
import { useInvalidateApiKeys } from './use-invalidate-api-keys';

/** Revoke, after a confirmation that says what breaks. */
export function RevokeApiKeyButton({ apiKey }: { apiKey: ApiKey }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateApiKeys();
  const [confirming, setConfirming] = useState(false);
  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        setConfirming(false);
      },
    }),
  );

  const close = () => {
    if (revoke.isPending) return;
    setConfirming(false);
    revoke.reset();
  };

  return (
    <>
      <Button variant="secondary" size="sm" className="text-red-700" onClick={() => setConfirming(true)} aria-label={`Revoke ${apiKey.name}`}>
        Revoke
      </Button>
      <Dialog
        open={confirming}
        onClose={close}
        title="Revoke API key"
        testId="revoke-dialog"
        description={
          <>
            Revoke <strong className="font-semibold text-slate-700">{apiKey.name}</strong> (<code className="font-mono text-xs">{apiKey.tokenStart}…</code>)?
          </>
        }
      >
        <div className="space-y-4">
          <p className="text-sm text-slate-600">
            Requests and SMTP logins that use this key will be refused immediately. This cannot be undone.
          </p>
          {revoke.error && <ErrorAlert error={revoke.error} fallbackTitle="Could not revoke the key" />}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close} disabled={revoke.isPending}>
              Cancel
            </Button>
            <Button variant="danger" loading={revoke.isPending} onClick={() => revoke.mutate({ id: apiKey.id })}>
              Revoke key
            </Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}
