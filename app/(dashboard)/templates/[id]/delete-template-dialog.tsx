'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { mutationDialogProps } from '../../../components/mutation-dialog-props';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { IrreversibleConsequences } from '../../../components/irreversible-consequences';
import { useTRPC } from '../../../lib/trpc';
import type { Template } from '../types';

/** Delete, after a confirmation that says what it changes for sends; then back to the list. */
export function DeleteTemplateDialog({ template, open, onClose }: { template: Template; open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const remove = useMutation(
    trpc.templates.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.templates.list.pathFilter());
        router.push('/templates');
        // Dropped after leaving, so the page never refetches a template that is gone.
        queryClient.removeQueries(trpc.templates.get.queryFilter({ id: template.id }));
        queryClient.removeQueries(trpc.templates.preview.pathFilter());
      },
    }),
  );

  return (
    <ConfirmDialog
      open={open}
      {...mutationDialogProps(remove, onClose)}
      title="Delete template"
      testId="delete-template-dialog"
      description={
        <>
          Delete <strong className="font-semibold break-all text-slate-700">{template.name}</strong>?
        </>
      }
      confirmLabel="Delete template"
      onConfirm={() => remove.mutate({ id: template.id })}
      errorTitle="Could not delete the template"
    >
      <IrreversibleConsequences>
        <li>Sends that give its template_id are refused from now on: update your code first.</li>
        <li>Emails already sent with it keep their content.</li>
      </IrreversibleConsequences>
    </ConfirmDialog>
  );
}
