'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MailCheckIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { TextField } from '../../components/field';
import { PendingLinkAlert } from '../../components/pending-link-alert';
import { Skeleton } from '../../components/skeleton';
import { formatDateTime } from '../../lib/format';
import { useMay } from '../../lib/use-role';
import { useTRPC } from '../../lib/trpc';
import { SettingsSection } from './section';

/**
 * Where the service's own mail goes (a key revoked, a failing webhook, a held broadcast, overage):
 * the owner's address until another is confirmed by the link we mail to it.
 */
export function NotificationAddress() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const state = useQuery(trpc.organization.notificationAddress.queryOptions({}));
  const mayChange = useMay('organization.setNotificationAddress');
  const [email, setEmail] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.organization.notificationAddress.queryKey() });
  const set = useMutation(
    trpc.organization.setNotificationAddress.mutationOptions({
      onSuccess: async () => {
        setEmail('');
        await refresh();
      },
    }),
  );
  const resend = useMutation(trpc.organization.resendNotificationLink.mutationOptions({ onSuccess: refresh }));
  const reset = useMutation(trpc.organization.resetNotificationAddress.mutationOptions({ onSuccess: refresh }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    set.mutate({ email });
  };
  const data = state.data;

  return (
    <SettingsSection
      id="notification-address"
      testId="notification-address"
      title="Notification address"
      description="Where we send this organization’s notices: a key revoked, a webhook failing, a broadcast held, overage entered. The owner’s address until another one is confirmed."
    >
      {state.isPending && <Skeleton className="h-5 w-1/2" />}
      {state.isError && <ErrorAlert error={state.error} fallbackTitle="Could not read the notification address" />}
      {data && (
        <>
          <p className="flex items-center gap-2 text-sm text-slate-700" data-testid="notification-address-current">
            <MailCheckIcon className="size-4 text-emerald-600" />
            Notices go to <strong>{data.address}</strong>
            {data.isOwners ? <span className="text-slate-500">(the owner’s address)</span> : <span className="text-slate-500">(confirmed)</span>}
          </p>
          {data.pending && (
            <PendingLinkAlert
              tone={data.pending.expired ? 'error' : 'warning'}
              title={data.pending.expired ? 'The link has expired' : 'Waiting for confirmation'}
              testId="notification-address-pending"
              resend={
                mayChange
                  ? { onResend: () => resend.mutate({}), isPending: resend.isPending, sentTo: resend.data?.sentTo, error: resend.error, testId: 'resend-notification-link' }
                  : undefined
              }
            >
              <p>
                We mailed a link to <strong>{data.pending.email}</strong> on {formatDateTime(data.pending.sentAt)}. Notices keep going to {data.address} until it is opened
                {data.pending.expired ? '; ask for a new one.' : `; it works until ${formatDateTime(data.pending.expiresAt)}.`}
              </p>
            </PendingLinkAlert>
          )}
          {mayChange ? (
            <form onSubmit={submit} className="flex max-w-xl flex-col gap-3 sm:flex-row sm:items-end">
              <TextField label="New notification address" className="flex-1" type="email" required maxLength={254} value={email} onChange={(event) => setEmail(event.target.value)} placeholder="ops@example.com" />
              <Button type="submit" loading={set.isPending} disabled={!email.trim()}>
                Send confirmation link
              </Button>
            </form>
          ) : (
            <p className="text-sm text-slate-500">Only the owner or an admin can change it.</p>
          )}
          {mayChange && (!data.isOwners || data.pending) && (
            <div>
              <Button variant="secondary" size="sm" loading={reset.isPending} onClick={() => reset.mutate({})} data-testid="use-owner-address">
                Use the owner’s address ({data.ownerEmail}) again
              </Button>
            </div>
          )}
          {set.isError && <ErrorAlert error={set.error} fallbackTitle="Could not set the notification address" />}
          {reset.isError && <ErrorAlert error={reset.error} fallbackTitle="Could not go back to the owner’s address" />}
        </>
      )}
    </SettingsSection>
  );
}
