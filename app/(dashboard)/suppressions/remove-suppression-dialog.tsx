'use client';

import { useMutation } from '@tanstack/react-query';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { mutationDialogProps, refetchThenClose } from '../../components/mutation-dialog-props';
import { useTRPC } from '../../lib/trpc';
import type { Suppression } from './types';
import { useInvalidateSuppressions } from './use-invalidate-suppressions';

/** Take one address off the list, after saying what that means. */
export function RemoveSuppressionDialog({ suppression, onClose }: { suppression: Suppression; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateSuppressions();
  const remove = useMutation(trpc.suppressions.delete.mutationOptions({ onSuccess: refetchThenClose(invalidate, onClose) }));

  return (
    <ConfirmDialog
      {...mutationDialogProps(remove, onClose)}
      testId="remove-suppression-dialog"
      title="Remove from the suppression list"
      description={
        <>
          Remove <strong className="font-semibold break-all text-slate-700">{suppression.email}</strong> from the list?
        </>
      }
      confirmLabel="Remove address"
      onConfirm={() => remove.mutate({ id: suppression.id })}
      errorTitle="Could not remove the address"
    >
      <p className="text-sm text-slate-600">
        Email to this address will be sent again, from the next send on.{' '}
        {suppression.reason === 'bounce' || suppression.reason === 'complaint'
          ? 'It was listed after a hard bounce or a spam complaint: sending to it again risks another one, which harms the reputation of your domains and puts the address back on the list.'
          : 'Remove it only if the person wants your email again.'}
      </p>
    </ConfirmDialog>
  );
}
