'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ErrorAlert } from '../../components/error-alert';
import { TextField } from '../../components/field';
import { fieldErrors } from '../../lib/field-errors';
import { useTRPC } from '../../lib/trpc';
import { useInvalidateAudiences } from './use-invalidate-audiences';

const FIELDS = ['name'] as const;

/** A name, and the new audience's page, where its contacts are added. */
export function CreateAudienceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
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

  const close = () => {
    if (create.isPending) return;
    setName('');
    create.reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name.trim() });
  };

  return (
    <Dialog open={open} onClose={close} testId="create-audience-dialog" title="Create audience" description="A list of contacts to send broadcasts to. You add its contacts next.">
      <form onSubmit={submit} className="space-y-5" noValidate>
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
        {other ? <ErrorAlert error={other} fallbackTitle="Could not create the audience" /> : null}
        <div className="flex justify-end gap-2 pt-1">
          <Button variant="secondary" onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending || create.isSuccess} disabled={!name.trim()}>
            Create audience
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
