'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormDialog } from '../../../components/form-dialog';
import { refetchThenClose } from '../../../components/mutation-dialog-props';
import { NameField } from '../../../components/name-field';
import { fieldErrors } from '../../../lib/field-errors';
import { useTRPC } from '../../../lib/trpc';
import type { Topic } from '../types';
import { DEFAULT_SUBSCRIPTIONS } from './default-subscription';
import { TopicDescriptionField } from './topic-description-field';

const FIELDS = ['name', 'description'] as const;

/** A topic's name and description; its default subscription stays as made. Only what changed is sent. */
export function EditTopicDialog({ topic, onClose }: { topic: Topic; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState(topic.name);
  const [description, setDescription] = useState(topic.description ?? '');
  const update = useMutation(trpc.topics.update.mutationOptions({ onSuccess: refetchThenClose(() => queryClient.invalidateQueries(trpc.topics.pathFilter()), onClose) }));
  const { byField, other } = fieldErrors(update.error, FIELDS);

  const submit = () => {
    const nextName = name.trim();
    const nextDescription = description.trim() || null;
    const changes = { name: nextName === topic.name ? undefined : nextName, description: nextDescription === topic.description ? undefined : nextDescription };
    if (changes.name === undefined && changes.description === undefined) return onClose();
    update.mutate({ id: topic.id, ...changes });
  };

  const fixed = DEFAULT_SUBSCRIPTIONS[topic.defaultSubscription];
  return (
    <FormDialog
      onClose={onClose}
      testId="edit-topic-dialog"
      title="Edit topic"
      description={`${fixed.label}, fixed: ${fixed.meaning.charAt(0).toLowerCase()}${fixed.meaning.slice(1)}`}
      onSubmit={submit}
      submitLabel="Save changes"
      submitDisabled={!name.trim()}
      pending={update.isPending}
      error={other}
      errorTitle="Could not save the topic"
    >
      <NameField value={name} onChange={setName} maxLength={100} error={byField.name} />
      <TopicDescriptionField value={description} onChange={setDescription} description="Leave it empty to remove it." error={byField.description} />
    </FormDialog>
  );
}
