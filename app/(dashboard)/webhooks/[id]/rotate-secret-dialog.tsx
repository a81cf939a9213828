'use client';

import { useMutation } from '@tanstack/react-query';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { ErrorAlert } from '../../../components/error-alert';
import { useTRPC } from '../../../lib/trpc';
import { SecretValue } from '../secret-value';

/** Replace the secret, after saying what breaks; then the new one, to copy to the receiver. */
export function RotateSecretDialog({ webhookId, open, onClose, onRotated }: { webhookId: string; open: boolean; onClose: () => void; onRotated: (secret: string) => void }) {
  const trpc = useTRPC();
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions({ onSuccess: ({ secret }) => onRotated(secret) }));

  const close = () => {
    if (rotate.isPending) return;
    rotate.reset();
    onClose();
  };

  return (
    <Dialog open={open} onClose={close} testId="rotate-secret-dialog" title={rotate.data ? 'New signing secret' : 'Rotate signing secret'}>
      {rotate.data ? (
        <div className="space-y-4">
          <SecretValue secret={rotate.data.secret} label="New signing secret" />
          <Alert tone="warning" title="Update your receiver now">
            The next delivery is signed with this secret only.
          </Alert>
          <div className="flex justify-end">
            <Button onClick={close}>Done</Button>
          </div>
        </div>
      ) : (
        <div className="space-y-4">
          <p className="text-sm text-slate-600">
            A new secret replaces the current one at once. The old secret stops working on the next delivery, retries of earlier events included: until
            your receiver has the new secret, it will reject our signatures and those deliveries will fail.
          </p>
          {rotate.error && <ErrorAlert error={rotate.error} fallbackTitle="Could not rotate the secret" />}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close} disabled={rotate.isPending}>
              Cancel
            </Button>
            <Button variant="danger" loading={rotate.isPending} onClick={() => rotate.mutate({ id: webhookId })}>
              Rotate secret
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
