'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { ErrorAlert } from '../../../components/error-alert';
import { TextareaField, TextField } from '../../../components/field';
import { fieldErrors } from '../../../lib/field-errors';
import { useTRPC } from '../../../lib/trpc';
import type { DefaultSubscription } from '../types';
import { DefaultSubscriptionChoice } from './default-subscription-choice';

const FIELDS = ['name', 'description'] as const;

/** A name contacts read on the preference page, a description, and a default subscription chosen on purpose (none is preselected). */
export function CreateTopicDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [defaultSubscription, setDefaultSubscription] = useState<DefaultSubscription | null>(null);
  const create = useMutation(
    trpc.topics.create.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.topics.pathFilter());
        finish();
      },
    }),
  );
  const { byField, other } = fieldErrors(create.error, FIELDS);

  function finish() {
    setName('');
    setDescription('');
    setDefaultSubscription(null);
    create.reset();
    onClose();
  }

  const close = () => {
    if (!create.isPending) finish();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!defaultSubscription) return;
    create.mutate({ name: name.trim(), description: description.trim() || undefined, default_subscription: defaultSubscription });
  };

  return (
    <Dialog open={open} onClose={close} testId="create-topic-dialog" title="Create topic" description="One kind of mail a contact may leave without leaving all of it.">
      <form onSubmit={submit} className="space-y-5" noValidate>
        <TextField
          label="Name"
          name="name"
          placeholder="Product news"
          required
          maxLength={100}
          autoFocus
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.target.value)}
          description="What contacts read on the preference page; no two topics share one."
          error={byField.name}
        />
        <TextareaField
          label="Description"
          name="description"
          hint="Optional"
          rows={2}
          maxLength={500}
          placeholder="New features, once a month."
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          error={byField.description}
        />
        <DefaultSubscriptionChoice value={defaultSubscription} onChange={setDefaultSubscription} />
        {other ? <ErrorAlert error={other} fallbackTitle="Could not create the topic" /> : null}
        <div className="flex justify-end gap-2 pt-1">
          <Button variant="secondary" onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending} disabled={!name.trim() || !defaultSubscription}>
            Create topic
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
