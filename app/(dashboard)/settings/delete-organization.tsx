'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DownloadIcon, Trash2Icon, Undo2Icon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { TextField } from '../../components/field';
import { formatDate, formatDateTime } from '../../lib/format';
import { useMay } from '../../lib/use-role';
import { useTRPC } from '../../lib/trpc';
import { DELETION_GRACE_DAYS as GRACE_DAYS } from '@/server/vocabulary/organization-deletion';
import { SettingsSection } from './section';


/** Saves the export made when deletion was asked for, as the JSON file it is. */
function useExportDownload() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const file = await queryClient.fetchQuery({ ...trpc.organization.deletionExport.queryOptions({}), staleTime: 0 });
      const url = URL.createObjectURL(new Blob([file.content], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = file.fileName;
      link.click();
      URL.revokeObjectURL(url);
    },
  });
}

/**
 * The owner deletes the organization by typing its name; during the grace period the section
 * says when it will be erased, offers the export and the cancellation. Others see the state only.
 */
export function DeleteOrganization() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const organization = useQuery(trpc.organization.current.queryOptions({}));
  const mayDelete = useMay('organization.requestDeletion');
  const mayDownload = useMay('organization.deletionExport');
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.organization.current.queryKey() });
  const request = useMutation(
    trpc.organization.requestDeletion.mutationOptions({
      onSuccess: async () => {
        setConfirming(false);
        setTyped('');
        await refresh();
      },
    }),
  );
  const cancel = useMutation(trpc.organization.cancelDeletion.mutationOptions({ onSuccess: refresh }));
  const download = useExportDownload();
  if (!organization.data) return null;
  const { name, deletion } = organization.data;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate({ confirmName: typed });
  };

  if (deletion) {
    return (
      <SettingsSection
        id="delete-organization"
        testId="delete-organization"
        danger
        title="Deletion pending"
        description={
          <p data-testid="deletion-pending">
            Deletion was asked for on {formatDateTime(deletion.requestedAt)}. API keys are refused and nothing is sent. On <strong>{formatDate(deletion.eraseAfter)}</strong> everything {name} holds is erased for good
            {mayDelete ? '; until then you can cancel.' : '; until then its owner can cancel.'}
          </p>
        }
      >
        <div className="flex flex-wrap gap-2">
          {mayDownload && (
            <Button variant="secondary" loading={download.isPending} onClick={() => download.mutate()} data-testid="download-export">
              <DownloadIcon className="size-4" />
              Download the export (JSON)
            </Button>
          )}
          {mayDelete && (
            <Button loading={cancel.isPending} onClick={() => cancel.mutate({})} data-testid="cancel-deletion">
              <Undo2Icon className="size-4" />
              Cancel deletion
            </Button>
          )}
        </div>
        {download.isError && <ErrorAlert error={download.error} fallbackTitle="Could not download the export" />}
        {cancel.isError && <ErrorAlert error={cancel.error} fallbackTitle="Could not cancel the deletion" />}
      </SettingsSection>
    );
  }

  return (
    <SettingsSection
      id="delete-organization"
      testId="delete-organization"
      danger
      title="Delete organization"
      description={`API keys stop working and nothing more is sent at once; an export of everything is made for you to download. After ${GRACE_DAYS} days, its emails, contacts, domains, keys, webhooks, templates, members and audit log are erased for good. Members’ accounts stay. ${mayDelete ? 'You can cancel until then.' : 'Only the owner can delete it.'}`}
    >
      {mayDelete && (
        <div>
          <Button variant="secondary" className="text-red-700" onClick={() => setConfirming(true)}>
            <Trash2Icon className="size-4" />
            Delete organization
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={`Delete ${name}?`}
        testId="delete-organization-dialog"
        description={`Its API keys stop working and it sends nothing from now on. Everything it holds is erased after ${GRACE_DAYS} days; you can cancel until then.`}
        confirmLabel="Delete organization"
        onSubmit={submit}
        confirmDisabled={typed.trim() !== name}
        pending={request.isPending}
        error={request.error}
        errorTitle="Could not delete the organization"
      >
        <TextField label={`Type ${name} to confirm`} value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" required />
      </ConfirmDialog>
    </SettingsSection>
  );
}
