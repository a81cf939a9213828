'use client';

import { useMutation } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { mutationDialogProps } from '../../../components/mutation-dialog-props';
import { useTRPC } from '../../../lib/trpc';
import type { Contact } from '../types';
import { useInvalidateAudiences } from '../use-invalidate-audiences';

/** Delete one contact, after a confirmation. */
export function DeleteContactDialog({ audienceId, contact, onClose, onDeleted }: { audienceId: string; contact: Contact; onClose: () => void; onDeleted: (id: string) => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateAudiences();
  const remove = useMutation(
    trpc.audiences.deleteContact.mutationOptions({
      onSuccess: async () => {
        onDeleted(contact.id);
        await invalidate();
        onClose();
      },
    }),
  );

  return (
    <ConfirmDialog
      {...mutationDialogProps(remove, onClose)}
      testId="delete-contact-dialog"
      title="Delete contact"
      description={
        <>
          Delete <strong className="font-semibold break-all text-slate-700">{contact.email}</strong> from this audience?
        </>
      }
      confirmLabel="Delete contact"
      onConfirm={() => remove.mutate({ id: audienceId, contactId: contact.id })}
      errorTitle="Could not delete the contact"
    >
      <p className="text-sm text-slate-600">
        The contact and its subscription status are deleted. If you only want to stop sending to this person, unsubscribe them instead: an
        unsubscribed contact stays unsubscribed when the address is imported again, a deleted one does not.
      </p>
    </ConfirmDialog>
  );
}
