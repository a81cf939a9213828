'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { ErrorAlert } from '../../../components/error-alert';
import { Dialog } from '../../../components/dialog';
import { useTRPC } from '../../../lib/trpc';
import type { Email } from '../types';
import { useInvalidateEmails } from './use-invalidate-emails';
import { MayCall } from '../../../components/may-call';

/** Cancel a scheduled email, after a confirmation: it will never be sent. */
function CancelEmailButtonShown({ email }: { email: Email }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateEmails();
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation(
    trpc.emails.cancel.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        setConfirming(false);
      },
    }),
  );

  const close = () => {
    if (cancel.isPending) return;
    setConfirming(false);
    cancel.reset();
  };

  return (
    <>
      <Button variant="secondary" className="text-red-700" onClick={() => setConfirming(true)}>
        Cancel email
      </Button>
      <Dialog open={confirming} onClose={close} title="Cancel this email" testId="cancel-email-dialog" description="It will not be sent. This cannot be undone.">
        <div className="space-y-4">
          {cancel.error && <ErrorAlert error={cancel.error} fallbackTitle="Could not cancel the email" />}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close} disabled={cancel.isPending}>
              Keep it
            </Button>
            <Button variant="danger" loading={cancel.isPending} onClick={() => cancel.mutate({ id: email.id })}>
              Cancel email
            </Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}

/** Only for a role that may cancel. */
export function CancelEmailButton(props: { email: Email }) {
  return (
    <MayCall procedure="emails.cancel">
      <CancelEmailButtonShown {...props} />
    </MayCall>
  );
}
