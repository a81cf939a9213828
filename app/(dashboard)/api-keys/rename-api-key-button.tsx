'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../components/button';
import { FormDialog } from '../../components/form-dialog';
import { refetchThenClose } from '../../components/mutation-dialog-props';
import { NameField } from '../../components/name-field';
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
  const rename = useMutation(trpc.apiKeys.rename.mutationOptions({ onSuccess: refetchThenClose(invalidate, onClose) }));
  const { byField, other } = fieldErrors(rename.error, FIELDS);

  const submit = () => {
    if (name.trim() === apiKey.name) return onClose();
    rename.mutate({ id: apiKey.id, name: name.trim() });
  };

  return (
    <FormDialog
      onClose={onClose}
      testId="rename-api-key-dialog"
      title="Rename API key"
      description={
        <>
          Only the name changes: <code className="font-mono text-xs">{apiKey.tokenStart}…</code> keeps its secret and what it may do.
        </>
      }
      onSubmit={submit}
      submitLabel="Save name"
      submitDisabled={!name.trim()}
      pending={rename.isPending}
      error={other}
      errorTitle="Could not rename the key"
    >
      <NameField value={name} onChange={setName} maxLength={100} error={byField.name} />
    </FormDialog>
  );
}
