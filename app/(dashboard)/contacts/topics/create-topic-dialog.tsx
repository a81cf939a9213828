'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { TextareaField, TextField } from '../../../components/field';
import { FormDialog } from '../../../components/form-dialog';
import { refetchThenClose } from '../../../components/mutation-dialog-props';
import { fieldErrors } from '../../../lib/field-errors';
import { useTRPC } from '../../../lib/trpc';
import type { DefaultSubscription } from '../types';
import { DefaultSubscriptionChoice } from './default-subscription-choice';

const FIELDS = ['name', 'description'] as const;

/**
 * A name contacts read on the preference page, a description, and a default subscription chosen
 * on purpose (none is preselected). Rendered only while open.
 */
export function CreateTopicDialog({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [defaultSubscription, setDefaultSubscription] = useState<DefaultSubscription | null>(null);
  const create = useMutation(trpc.topics.create.mutationOptions({ onSuccess: refetchThenClose(() => queryClient.invalidateQueries(trpc.topics.pathFilter()), onClose) }));
  const { byField, other } = fieldErrors(create.error, FIELDS);

  const submit = () => {
    if (!defaultSubscription) return;
    create.mutate({ name: name.trim(), description: description.trim() || undefined, default_subscription: defaultSubscription });
  };

  return (
    <FormDialog
      onClose={onClose}
      testId="create-topic-dialog"
      title="Create topic"
      description="One kind of mail a contact may leave without leaving all of it."
      onSubmit={submit}
      submitLabel="Create topic"
      submitDisabled={!name.trim() || !defaultSubscription}
      pending={create.isPending}
      error={other}
      errorTitle="Could not create the topic"
    >
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
    </FormDialog>
  );
}
