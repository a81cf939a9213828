'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { TextField } from '../../components/field';
import { FormDialog } from '../../components/form-dialog';
import { fieldErrors } from '../../lib/field-errors';
import { useTRPC } from '../../lib/trpc';
import { useInvalidateAudiences } from './use-invalidate-audiences';

const FIELDS = ['name'] as const;

/** A name, and the new audience's page, where its contacts are added. Rendered only while open. */
export function CreateAudienceDialog({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const invalidate = useInvalidateAudiences();
  const [name, setName] = useState('');
  const create = useMutation(
    trpc.audiences.create.mutationOptions({
      onSuccess: (audience) => {
        void invalidate();
        router.push(`/audiences/${audience.id}`);
      },
    }),
  );
  const { byField, other } = fieldErrors(create.error, FIELDS);

  return (
    <FormDialog
      onClose={onClose}
      testId="create-audience-dialog"
      title="Create audience"
      description="A list of contacts to send broadcasts to. You add its contacts next."
      onSubmit={() => create.mutate({ name: name.trim() })}
      submitLabel="Create audience"
      submitDisabled={!name.trim()}
      pending={create.isPending}
      loading={create.isPending || create.isSuccess}
      error={other}
      errorTitle="Could not create the audience"
    >
      <TextField
        label="Name"
        name="name"
        placeholder="Newsletter"
        required
        maxLength={200}
        autoFocus
        autoComplete="off"
        value={name}
        onChange={(event) => setName(event.target.value)}
        description="For example the list a signup form feeds. The same address may be in several audiences."
        error={byField.name}
      />
    </FormDialog>
  );
}
