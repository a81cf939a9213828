'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormDialog } from '../../../components/form-dialog';
import { refetchThenClose } from '../../../components/mutation-dialog-props';
import { NameField } from '../../../components/name-field';
import { fieldErrors } from '../../../lib/field-errors';
import { useTRPC } from '../../../lib/trpc';
import type { DefaultSubscription } from '../types';
import { DefaultSubscriptionChoice } from './default-subscription-choice';
import { TopicDescriptionField } from './topic-description-field';

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
      <NameField
        value={name}
        onChange={setName}
        maxLength={100}
        placeholder="Product news"
        description="What contacts read on the preference page; no two topics share one."
        error={byField.name}
      />
      <TopicDescriptionField value={description} onChange={setDescription} placeholder="New features, once a month." error={byField.description} />
      <DefaultSubscriptionChoice value={defaultSubscription} onChange={setDefaultSubscription} />
    </FormDialog>
  );
}
