'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { IrreversibleConsequences } from '../../../components/irreversible-consequences';
import { mutationDialogProps } from '../../../components/mutation-dialog-props';
import { useTRPC } from '../../../lib/trpc';
import type { ContactProperty } from '../types';

/** Delete a property, and with it every contact's value of it. */
export function DeletePropertyDialog({ property, onClose }: { property: ContactProperty; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.contactProperties.delete.mutationOptions({
      onSuccess: async () => {
        await Promise.all([queryClient.invalidateQueries(trpc.contactProperties.pathFilter()), queryClient.invalidateQueries(trpc.contacts.pathFilter())]);
        onClose();
      },
    }),
  );

  return (
    <ConfirmDialog
      {...mutationDialogProps(remove, onClose)}
      loading={remove.isPending}
      title="Delete property"
      testId="delete-property-dialog"
      description={
        <>
          Delete <code className="font-mono font-semibold break-all text-slate-700">{property.key}</code>?
        </>
      }
      confirmLabel="Delete property"
      onConfirm={() => remove.mutate({ id: property.id })}
      errorTitle="Could not delete the property"
    >
      <IrreversibleConsequences>
        <li>Every contact&apos;s value of it is deleted with it.</li>
        <li>A property made again under the same key starts with no values.</li>
      </IrreversibleConsequences>
    </ConfirmDialog>
  );
}
