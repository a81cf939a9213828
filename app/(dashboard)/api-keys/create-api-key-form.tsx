'use client';

import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { SelectField, TextField } from '../../components/field';
import { useDashboardMode } from '../../lib/dashboard-mode';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../../components/error-alert';
import { ANY_DOMAIN, DomainPinField } from './domain-pin-field';
import { DIALECT_LABELS, MODE_LABELS, PERMISSION_LABELS } from './key-badges';
import type { CreatedApiKey, Dialect, Mode, Permission } from './types';
import { useInvalidateApiKeys } from './use-invalidate-api-keys';

const PERMISSION_HELP: Record<Permission, string> = {
  full_access: 'Can call every endpoint: send, read, and manage domains, keys and webhooks.',
  sending_access: 'Can only send email (the API and the SMTP gateway). Best for applications.',
};

const MODE_HELP: Record<Mode, string> = {
  live: 'Sends real email. Plans cap the number of live keys (the Free plan allows one).',
  test: 'Simulates delivery and never sends; test emails stay apart from live ones.',
};

const DIALECT_HELP: Record<Dialect, string> = {
  spec: 'Answers as this API documents them (camelCase fields, errors { error, code }).',
  resend: "For Resend's SDKs pointed at EU Mail: answers in Resend's shapes (snake_case fields, object, has_more, Resend's error body).",
};

export function CreateApiKeyForm({ onCreated, onCancel }: { onCreated: (created: CreatedApiKey) => void; onCancel: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateApiKeys();
  const [name, setName] = useState('');
  const [permission, setPermission] = useState<Permission>('full_access');
  const [domainId, setDomainId] = useState(ANY_DOMAIN);
  // The world the dashboard shows: in test mode a live key could not be created anyway.
  const dashboardMode = useDashboardMode();
  const [mode, setMode] = useState<Mode>(dashboardMode);
  const [dialect, setDialect] = useState<Dialect>('spec');
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: (created) => {
        void invalidate();
        onCreated(created);
      },
    }),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A pin is for sending keys only (the API refuses one on a full access key).
    const pin = permission === 'sending_access' && domainId !== ANY_DOMAIN ? { domain_id: domainId } : {};
    create.mutate({ name: name.trim(), permission, mode, dialect, ...pin });
  };

  return (
    <form onSubmit={submit} className="space-y-4" data-testid="create-api-key-form">
      <TextField
        label="Name"
        name="name"
        placeholder="e.g. Production app"
        required
        maxLength={100}
        autoFocus
        autoComplete="off"
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <SelectField label="Permission" name="permission" value={permission} onChange={(event) => setPermission(event.target.value as Permission)} description={PERMISSION_HELP[permission]}>
        {(Object.keys(PERMISSION_LABELS) as Permission[]).map((value) => (
          <option key={value} value={value}>
            {PERMISSION_LABELS[value]}
          </option>
        ))}
      </SelectField>
      {permission === 'sending_access' && <DomainPinField value={domainId} onChange={setDomainId} />}
      <SelectField label="Mode" name="mode" value={mode} onChange={(event) => setMode(event.target.value as Mode)} description={MODE_HELP[mode]}>
        {(Object.keys(MODE_LABELS) as Mode[]).map((value) => (
          <option key={value} value={value}>
            {MODE_LABELS[value]}
          </option>
        ))}
      </SelectField>
      <SelectField label="Answers" name="dialect" value={dialect} onChange={(event) => setDialect(event.target.value as Dialect)} description={DIALECT_HELP[dialect]}>
        {(Object.keys(DIALECT_LABELS) as Dialect[]).map((value) => (
          <option key={value} value={value}>
            {DIALECT_LABELS[value]}
          </option>
        ))}
      </SelectField>
      {create.error && <ErrorAlert error={create.error} fallbackTitle="Could not create the key" />}
      <div className="flex justify-end gap-2 pt-2">
        <Button variant="secondary" onClick={onCancel} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
          Create key
        </Button>
      </div>
    </form>
  );
}
