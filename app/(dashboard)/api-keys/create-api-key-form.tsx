'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ChoiceSelect, choicesOf } from '../../components/choice-select';
import { DialogForm } from '../../components/dialog-form';
import { NameField } from '../../components/name-field';
import { useDashboardMode } from '../../lib/dashboard-mode';
import { useTRPC } from '../../lib/trpc';
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

const PERMISSIONS = choicesOf(PERMISSION_LABELS);
const MODES = choicesOf(MODE_LABELS);
const DIALECTS = choicesOf(DIALECT_LABELS);

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

  const submit = () => {
    // A pin is for sending keys only (the API refuses one on a full access key).
    const pin = permission === 'sending_access' && domainId !== ANY_DOMAIN ? { domain_id: domainId } : {};
    create.mutate({ name: name.trim(), permission, mode, dialect, ...pin });
  };

  return (
    <DialogForm
      testId="create-api-key-form"
      onSubmit={submit}
      onCancel={onCancel}
      submitLabel="Create key"
      submitDisabled={!name.trim()}
      pending={create.isPending}
      error={create.error}
      errorTitle="Could not create the key"
    >
      {/* Four fields and a pin: closer together than a dialog's usual spacing. */}
      <div className="space-y-4">
        <NameField value={name} onChange={setName} maxLength={100} placeholder="e.g. Production app" />
        <ChoiceSelect label="Permission" name="permission" choices={PERMISSIONS} value={permission} onChange={setPermission} description={PERMISSION_HELP[permission]} />
        {permission === 'sending_access' && <DomainPinField value={domainId} onChange={setDomainId} />}
        <ChoiceSelect label="Mode" name="mode" choices={MODES} value={mode} onChange={setMode} description={MODE_HELP[mode]} />
        <ChoiceSelect label="Answers" name="dialect" choices={DIALECTS} value={dialect} onChange={setDialect} description={DIALECT_HELP[dialect]} />
      </div>
    </DialogForm>
  );
}
