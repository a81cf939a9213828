'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { hostOfTypedAddress } from '@/server/services/domains/typed-host';
import { DialogForm } from '../../components/dialog-form';
import { CheckboxField, TextField } from '../../components/field';
import { fieldErrors } from '../../lib/field-errors';
import { useTRPC } from '../../lib/trpc';
import type { Domain } from './types';
import { useInvalidateDomains } from './use-invalidate-domains';

const DEFAULT_RETURN_PATH = 'send';
const FIELDS = ['name', 'return_path'] as const;

/**
 * Registers a domain, then opens its page with the records to publish, or hands it to
 * `onCreated` (the overview shows the records where it is).
 */
export function AddDomainForm({ onCancel, onCreated, initialName = '' }: { onCancel: () => void; onCreated?: (domain: Domain) => void; initialName?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const invalidate = useInvalidateDomains();
  const router = useRouter();
  const [name, setName] = useState(initialName);
  const [returnPath, setReturnPath] = useState(DEFAULT_RETURN_PATH);
  const [openTracking, setOpenTracking] = useState(false);
  const [clickTracking, setClickTracking] = useState(false);
  const create = useMutation(
    trpc.domains.create.mutationOptions({
      onSuccess: (domain) => {
        queryClient.setQueryData(trpc.domains.get.queryKey({ id: domain.id }), domain);
        void invalidate();
        if (onCreated) onCreated(domain);
        else router.push(`/domains/${domain.id}`);
      },
    }),
  );

  const submit = () => {
    create.mutate({
      name: name.trim(),
      return_path: returnPath.trim() || undefined,
      open_tracking: openTracking,
      click_tracking: clickTracking,
    });
  };

  const { byField, other } = fieldErrors(create.error, FIELDS);
  // A web or email address typed as the name: the server refuses it, and its host is one click away.
  const host = byField.name ? hostOfTypedAddress(name) : null;
  const takeHost = (value: string) => {
    setName(value);
    create.reset();
  };

  const preview = `${returnPath.trim() || DEFAULT_RETURN_PATH}.${name.trim().replace(/\.$/, '') || 'example.com'}`;

  return (
    <DialogForm
      testId="add-domain-form"
      onSubmit={submit}
      onCancel={onCancel}
      submitLabel="Add domain"
      submitDisabled={!name.trim()}
      pending={create.isPending}
      loading={create.isPending || create.isSuccess}
      error={other}
      errorTitle="Could not add the domain"
    >
      {/* The name and its advanced settings, closer together than a dialog's usual spacing. */}
      <div className="space-y-4">
        <TextField
          label="Domain"
          name="name"
          placeholder="example.com"
          required
          maxLength={253}
          autoFocus
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={name}
          onChange={(event) => setName(event.target.value)}
          description="A domain you control the DNS of, or a subdomain such as mail.example.com."
          error={
            byField.name && (
              <>
                {byField.name.replace(/; did you mean .*$/, '.')}
                {host && (
                  <>
                    {' '}
                    <button type="button" className="font-medium text-indigo-600 underline hover:text-indigo-500" onClick={() => takeHost(host)} data-testid="use-host">
                      Use {host}
                    </button>
                  </>
                )}
              </>
            )
          }
        />
        <details className="group rounded-lg border border-slate-200 px-3 py-2 open:pb-3" data-testid="advanced-settings" open={byField.return_path ? true : undefined}>
          <summary className="cursor-pointer text-sm font-medium text-slate-700 select-none">Advanced settings</summary>
          <div className="mt-3 space-y-4">
            <TextField
              label="Return-path subdomain"
              name="return_path"
              placeholder={DEFAULT_RETURN_PATH}
              maxLength={100}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              value={returnPath}
              onChange={(event) => setReturnPath(event.target.value)}
              error={byField.return_path}
              description={
                <>
                  Bounces come back to <code className="font-mono break-all">{preview}</code>. Change it only if that name is already in use.
                </>
              }
            />
            <CheckboxField
              label="Open tracking"
              checked={openTracking}
              onChange={(event) => setOpenTracking(event.target.checked)}
              description="Records opens of HTML emails with an invisible image. The default for mail from this domain."
            />
            <CheckboxField
              label="Click tracking"
              checked={clickTracking}
              onChange={(event) => setClickTracking(event.target.checked)}
              description="Records clicks by sending links through a redirect. The default for mail from this domain."
            />
          </div>
        </details>
      </div>
    </DialogForm>
  );
}
