'use client';

import { useMutation } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { mutationDialogProps, refetchThenClose } from '../../../components/mutation-dialog-props';
import { useTRPC } from '../../../lib/trpc';
import type { ContactProfile, ContactSegment } from '../types';
import { useInvalidateContacts } from '../use-invalidate-contacts';

/**
 * Takes the contact out of one segment; it stays a contact (Resend's rule, unlike removing it
 * from the audience's page). Its subscription there goes with it, which matters for an opt-out.
 */
export function LeaveSegmentDialog({ contact, segment, onClose }: { contact: ContactProfile; segment: ContactSegment; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateContacts();
  const remove = useMutation(trpc.contacts.removeSegment.mutationOptions({ onSuccess: refetchThenClose(invalidate, onClose) }));
  return (
    <ConfirmDialog
      {...mutationDialogProps(remove, onClose)}
      testId="leave-segment-dialog"
      title="Remove from segment"
      description={
        <>
          Take <strong className="font-semibold break-all text-slate-700">{contact.email}</strong> out of{' '}
          <strong className="font-semibold break-words text-slate-700">{segment.name}</strong>?
        </>
      }
      confirmLabel="Remove from segment"
      onConfirm={() => remove.mutate({ idOrEmail: contact.id, segmentId: segment.id })}
      errorTitle="Could not remove the contact from the segment"
    >
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-600">
        <li>Broadcasts to {segment.name} no longer reach this contact. It stays a contact, with its values and its other segments.</li>
        {!segment.subscribed && (
          <li data-testid="leave-loses-opt-out">
            It unsubscribed from this segment. Added again later, it would be subscribed: to stop broadcasts, leaving it unsubscribed is the safer choice.
          </li>
        )}
      </ul>
    </ConfirmDialog>
  );
}
