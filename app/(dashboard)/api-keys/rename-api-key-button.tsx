'use client';

import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ErrorAlert } from '../../components/error-alert';
import { TextField } from '../../components/field';
import { fieldErrors } from '../../lib/field-errors';
import { useTRPC } from '../../lib/trpc';
import type { ApiKey } from './types';
import { useInvalidateApiKeys } from './use-invalidate-api-keys';

const FIELDS = ['name'] as const;

/** A new name for a key; its secret, permission and pin stay as they are. */
export function RenameApiKeyButton({ apiKey }: { apiKey: ApiKey }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)} aria-label={`Rename ${apiKey.name}`}>
        Rename
      </Button>
      {open && <RenameApiKeyDialog apiKey={apiKey} onClose={() => setOpen(false)} />}
    </>
  );
}

function RenameApiKeyDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateApiKeys();
  const [name, setName] = useState(apiKey.name);
  const rename = useMutation(
    trpc.apiKeys.rename.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        onClose();
      },
    }),
  );
  const { byField, other } = fieldErrors(rename.error, FIELDS);

  const close = () => {
    if (!rename.isPending) onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === apiKey.name) return onClose();
    rename.mutate({ id: apiKey.id, name: name.trim() });
  };

  return (
    <Dialog
      open
      onClose={close}
      testId="rename-api-key-dialog"
      title="Rename API key"
      description={
        <>
          Only the name changes: <code className="font-mono text-xs">{apiKey.tokenStart}…</code> keeps its secret and what it may do.
        </>
      }
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <TextField
          label="Name"
          name="name"
          required
          maxLength={100}
          autoFocus
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={byField.name}
        />
        {other ? <ErrorAlert error={other} fallbackTitle="Could not rename the key" /> : null}
        <div className="flex justify-end gap-2 pt-1">
          <Button variant="secondary" onClick={close} disabled={rename.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={rename.isPending} disabled={!name.trim()}>
            Save name
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
