'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { IrreversibleConsequences } from '../../../components/irreversible-consequences';
import { mutationDialogProps } from '../../../components/mutation-dialog-props';
import { countOf } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import type { ContactProfile } from '../types';

/** Delete the contact from everything, naming the segments it leaves; then back to the contacts. */
export function DeleteContactDialog({ contact, onClose }: { contact: ContactProfile; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const segments = useQuery(trpc.contacts.listSegments.queryOptions({ idOrEmail: contact.id })).data?.data;
  const remove = useMutation(
    trpc.contacts.delete.mutationOptions({
      onSuccess: async () => {
        router.push('/contacts');
        // Dropped after leaving, so the page never refetches a contact that is gone.
        queryClient.removeQueries(trpc.contacts.get.queryFilter({ idOrEmail: contact.id }));
        queryClient.removeQueries(trpc.contacts.listSegments.queryFilter({ idOrEmail: contact.id }));
        await Promise.all([
          queryClient.invalidateQueries(trpc.contacts.list.pathFilter()),
          queryClient.invalidateQueries(trpc.audiences.pathFilter()),
          queryClient.invalidateQueries(trpc.segments.pathFilter()),
        ]);
      },
    }),
  );

  return (
    <ConfirmDialog
      {...mutationDialogProps(remove, onClose)}
      title="Delete contact"
      testId="delete-contact-dialog"
      description={
        <>
          Delete <strong className="font-semibold break-all text-slate-700">{contact.email}</strong> from everything?
        </>
      }
      confirmLabel="Delete contact"
      onConfirm={() => remove.mutate({ idOrEmail: contact.id })}
      errorTitle="Could not delete the contact"
    >
      <IrreversibleConsequences>
        <li data-testid="delete-contact-segments">
          {segments === undefined
            ? 'It leaves every segment it is in.'
            : segments.length === 0
              ? 'It is in no segment.'
              : `It leaves ${countOf(segments.length, 'segment')}: ${segments.map((segment) => segment.name).join(', ')}.`}
        </li>
        <li>Its names, property values and topic choices are deleted, and it frees its place under your plan&apos;s contact limit.</li>
        <li>
          Its unsubscribe goes with it: added again, the address starts subscribed. To stop sending to this person, switch on &quot;Unsubscribed from
          everything&quot; instead.
        </li>
      </IrreversibleConsequences>
    </ConfirmDialog>
  );
}
