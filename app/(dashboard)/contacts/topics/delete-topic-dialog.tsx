'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { IrreversibleConsequences } from '../../../components/irreversible-consequences';
import { mutationDialogProps } from '../../../components/mutation-dialog-props';
import { useTRPC } from '../../../lib/trpc';
import type { Topic } from '../types';

/** Delete a topic, after saying what goes with it. */
export function DeleteTopicDialog({ topic, onClose }: { topic: Topic; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.topics.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.topics.pathFilter());
        onClose();
      },
    }),
  );

  return (
    <ConfirmDialog
      {...mutationDialogProps(remove, onClose)}
      loading={remove.isPending}
      title="Delete topic"
      testId="delete-topic-dialog"
      description={
        <>
          Delete <strong className="font-semibold break-words text-slate-700">{topic.name}</strong>?
        </>
      }
      confirmLabel="Delete topic"
      onConfirm={() => remove.mutate({ id: topic.id })}
      errorTitle="Could not delete the topic"
    >
      <IrreversibleConsequences>
        <li>It leaves the preference page, and every contact&apos;s choice about it is forgotten.</li>
        <li>A topic made again under the same name starts with no choices: its default subscription applies to everyone.</li>
      </IrreversibleConsequences>
    </ConfirmDialog>
  );
}
