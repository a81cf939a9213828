'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Dialog } from '../../components/dialog';
import { fieldErrors } from '../../lib/field-errors';
import { useTRPC } from '../../lib/trpc';
import { AddSuppressionsForm } from './add-suppressions-form';
import { AddSuppressionsSummary } from './add-suppressions-summary';
import { splitAddresses } from './address-list';
import type { CallerReason } from './reasons';
import { useInvalidateSuppressions } from './use-invalidate-suppressions';
import { useSuppressionsUpload } from './use-suppressions-upload';

const FIELDS = ['email'] as const;

/**
 * One address or many onto the list. One is sent on its own (a refusal shows under the text, and
 * the dialog closes when it is listed); several go in batches of 1,000, then a summary says what
 * was added, what was listed already and which addresses were refused, and why.
 */
export function AddSuppressionsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateSuppressions();
  const upload = useSuppressionsUpload();
  const [text, setText] = useState('');
  const [reason, setReason] = useState<CallerReason>('manual');
  const create = useMutation(
    trpc.suppressions.create.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        finish();
      },
    }),
  );
  const addresses = splitAddresses(text);
  const uploading = upload.state.phase === 'uploading';
  const pending = create.isPending || uploading;
  const { byField, other } = fieldErrors(create.error, FIELDS);

  /** Empty again for the next time. */
  function restart() {
    setText('');
    setReason('manual');
    create.reset();
    upload.reset();
  }

  function finish() {
    restart();
    onClose();
  }

  const close = () => {
    if (!pending) finish();
  };

  const submit = () => {
    create.reset();
    if (addresses.length === 1) create.mutate({ email: addresses[0]!, reason });
    else void upload.start(addresses, reason);
  };

  const done = upload.state.phase === 'done';
  return (
    <Dialog
      open={open}
      onClose={close}
      testId="add-suppressions-dialog"
      title={done ? 'Addresses added' : 'Add addresses'}
      description={done ? undefined : 'Email is not sent to listed addresses. An address already on the list keeps its entry and reason.'}
    >
      {upload.state.phase === 'done' ? (
        <AddSuppressionsSummary outcome={upload.state.outcome} onAnother={restart} onDone={finish} />
      ) : (
        <AddSuppressionsForm
          text={text}
          onTextChange={(value) => {
            setText(value);
            if (create.error) create.reset();
          }}
          reason={reason}
          onReasonChange={setReason}
          count={addresses.length}
          pending={pending}
          progress={upload.state.phase === 'uploading' ? upload.state.progress : null}
          textError={byField.email}
          error={other}
          onSubmit={submit}
          onCancel={close}
        />
      )}
    </Dialog>
  );
}
