'use client';

import { useMutation } from '@tanstack/react-query';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ErrorAlert } from '../../components/error-alert';
import { useTRPC } from '../../lib/trpc';
import type { Suppression } from './types';
import { useInvalidateSuppressions } from './use-invalidate-suppressions';

/** Take one address off the list, after saying what that means. */
export function RemoveSuppressionDialog({ suppression, onClose }: { suppression: Suppression; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateSuppressions();
  const remove = useMutation(
    trpc.suppressions.delete.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        onClose();
      },
    }),
  );

  const close = () => {
    if (!remove.isPending) onClose();
  };

  return (
    <Dialog
      open
      onClose={close}
      testId="remove-suppression-dialog"
      title="Remove from the suppression list"
      description={
        <>
          Remove <strong className="font-semibold break-all text-slate-700">{suppression.email}</strong> from the list?
        </>
      }
    >
      <div className="space-y-4">
        <p className="text-sm text-slate-600">
          Email to this address will be sent again, from the next send on.{' '}
          {suppression.reason === 'bounce' || suppression.reason === 'complaint'
            ? 'It was listed after a hard bounce or a spam complaint: sending to it again risks another one, which harms the reputation of your domains and puts the address back on the list.'
            : 'Remove it only if the person wants your email again.'}
        </p>
        {remove.error && <ErrorAlert error={remove.error} fallbackTitle="Could not remove the address" />}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button variant="danger" loading={remove.isPending} onClick={() => remove.mutate({ id: suppression.id })}>
            Remove address
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
