'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { TextField } from '../../components/field';
import { Skeleton } from '../../components/skeleton';
import { useMay } from '../../lib/use-role';
import { useTRPC } from '../../lib/trpc';
import { SettingsSection } from './section';

/** The organization's name, as members, invitations and the service's mail show it; the owner and admins change it. */
export function OrganizationName() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const organization = useQuery(trpc.organization.current.queryOptions({}));
  const mayRename = useMay('organization.rename');
  const [draft, setDraft] = useState<string | null>(null);
  const rename = useMutation(
    trpc.organization.rename.mutationOptions({
      onSuccess: async () => {
        setDraft(null);
        await queryClient.invalidateQueries({ queryKey: trpc.organization.current.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.organization.memberships.queryKey() });
      },
    }),
  );
  const current = organization.data?.name ?? '';
  const value = draft ?? current;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate({ name: value });
  };

  return (
    <SettingsSection id="organization-name" testId="organization-name" title="Organization name" description="Shown to your members, in invitations and in the mail we send you.">
      {organization.isPending && <Skeleton className="h-9 w-full max-w-md" />}
      {organization.isError && <ErrorAlert error={organization.error} fallbackTitle="Could not read the organization" />}
      {organization.data && (
        <form onSubmit={submit} className="flex max-w-xl flex-col gap-3 sm:flex-row sm:items-end">
          <TextField
            label="Name"
            className="flex-1"
            value={value}
            maxLength={100}
            required
            disabled={!mayRename}
            onChange={(event) => setDraft(event.target.value)}
            description={mayRename ? undefined : 'Only the owner or an admin can rename the organization.'}
          />
          {mayRename && (
            <Button type="submit" loading={rename.isPending} disabled={value.trim() === current || !value.trim()}>
              Save name
            </Button>
          )}
        </form>
      )}
      {rename.isError && <ErrorAlert error={rename.error} fallbackTitle="Could not rename the organization" />}
      {rename.isSuccess && draft === null && (
        <p role="status" className="text-sm text-emerald-700">
          Renamed to {rename.data.name}.
        </p>
      )}
    </SettingsSection>
  );
}
