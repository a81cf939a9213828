'use client';

import { useMutation } from '@tanstack/react-query';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { ErrorAlert } from '../../../components/error-alert';
import { useTRPC } from '../../../lib/trpc';
import { SecretValue } from '../secret-value';
import type { SecretMode } from './use-signing-secret';

/**
 * Replace a secret, after saying what breaks; then the new one, to copy to the receiver. Without a
 * mode it is the dashboard's mode's secret (the live one in live mode); `mode="test"` replaces the
 * test-mode secret from live mode.
 */
export function RotateSecretDialog({
  webhookId,
  mode,
  open,
  onClose,
  onRotated,
}: {
  webhookId: string;
  mode?: SecretMode;
  open: boolean;
  onClose: () => void;
  onRotated: (rotated: { mode: SecretMode; secret: string }) => void;
}) {
  const trpc = useTRPC();
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions({ onSuccess: onRotated }));
  const ofTest = mode === 'test';

  const close = () => {
    if (rotate.isPending) return;
    rotate.reset();
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      testId={ofTest ? 'rotate-test-secret-dialog' : 'rotate-secret-dialog'}
      title={rotate.data ? `New ${ofTest ? 'test-mode ' : ''}signing secret` : `Rotate ${ofTest ? 'test-mode ' : ''}signing secret`}
    >
      {rotate.data ? (
        <div className="space-y-4">
          <SecretValue secret={rotate.data.secret} label={`New ${ofTest ? 'test-mode ' : ''}signing secret`} testId={ofTest ? 'webhook-test-secret' : 'webhook-secret'} />
          <Alert tone="warning" title="Update your receiver now">
            {rotate.data.mode === 'test' ? 'The next test-mode delivery is signed with this secret, no longer with the old one.' : 'The next delivery is signed with this secret only.'}
          </Alert>
          <div className="flex justify-end">
            <Button onClick={close}>Done</Button>
          </div>
        </div>
      ) : (
        <div className="space-y-4">
          {ofTest && <p className="text-sm text-slate-600">The test-mode secret signs test-mode events only; live events keep the live secret.</p>}
          <p className="text-sm text-slate-600">
            A new secret replaces the current one at once. The old secret stops working on the next delivery, retries of earlier events included: until
            your receiver has the new secret, it will reject our signatures and those deliveries will fail.
          </p>
          {rotate.error && <ErrorAlert error={rotate.error} fallbackTitle="Could not rotate the secret" />}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close} disabled={rotate.isPending}>
              Cancel
            </Button>
            <Button variant="danger" loading={rotate.isPending} onClick={() => rotate.mutate({ id: webhookId, mode })}>
              {ofTest ? 'Rotate test secret' : 'Rotate secret'}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
