'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { TextField } from '../../../components/field';
import { IrreversibleConsequences } from '../../../components/irreversible-consequences';
import { useTRPC } from '../../../lib/trpc';
import type { Domain } from '../types';

/** The API keys pinned to this domain, which the deletion revokes. */
function usePinnedKeys(domainId: string, enabled: boolean) {
  const trpc = useTRPC();
  const keys = useQuery({ ...trpc.apiKeys.list.queryOptions({}), enabled });
  return keys.data?.data.filter((key) => key.domainId === domainId) ?? [];
}

/** Delete, after typing the domain's name: what breaks is spelled out first. */
export function DeleteDomainDialog({ domain, open, onClose }: { domain: Domain; open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [typed, setTyped] = useState('');
  const pinned = usePinnedKeys(domain.id, open);
  const remove = useMutation(
    trpc.domains.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.domains.list.pathFilter());
        void queryClient.invalidateQueries(trpc.apiKeys.list.pathFilter());
        router.push('/domains');
        queryClient.removeQueries(trpc.domains.get.queryFilter({ id: domain.id }));
      },
    }),
  );
  const matches = typed.trim().toLowerCase() === domain.name;

  const close = () => {
    if (remove.isPending) return;
    setTyped('');
    remove.reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (matches) remove.mutate({ id: domain.id });
  };

  return (
    <ConfirmDialog
      open={open}
      onClose={close}
      title="Delete domain"
      testId="delete-domain-dialog"
      description={
        <>
          Delete <strong className="font-semibold break-all text-slate-700">{domain.name}</strong>?
        </>
      }
      confirmLabel="Delete domain"
      onSubmit={submit}
      confirmDisabled={!matches}
      pending={remove.isPending}
      loading={remove.isPending || remove.isSuccess}
      error={remove.error}
      errorTitle="Could not delete the domain"
    >
      <IrreversibleConsequences>
        <li>Email can no longer be sent from this domain.</li>
        <li>Its DKIM signing key is destroyed; adding the domain again gives new records to publish.</li>
        <li data-testid="pinned-keys-warning">
          API keys restricted to this domain are revoked immediately
          {pinned.length > 0 ? (
            <>
              : <strong className="font-medium text-slate-800">{pinned.map((key) => key.name).join(', ')}</strong>.
            </>
          ) : (
            '.'
          )}
        </li>
      </IrreversibleConsequences>
      <TextField
        label={`Type ${domain.name} to confirm`}
        name="confirm"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
      />
    </ConfirmDialog>
  );
}
