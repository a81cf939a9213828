'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { ErrorAlert } from '../../../components/error-alert';
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

  const close = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Delete template"
      testId="delete-template-dialog"
      description={
        <>
          Delete <strong className="font-semibold break-all text-slate-700">{template.name}</strong>?
        </>
      }
    >
      <div className="space-y-4">
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-600">
          <li>Sends that give its template_id are refused from now on: update your code first.</li>
          <li>Emails already sent with it keep their content.</li>
        </ul>
        <p className="text-sm font-medium text-slate-700">This cannot be undone.</p>
        {remove.error && <ErrorAlert error={remove.error} fallbackTitle="Could not delete the template" />}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button variant="danger" loading={remove.isPending || remove.isSuccess} onClick={() => remove.mutate({ id: template.id })}>
            Delete template
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
