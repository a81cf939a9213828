'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MailCheckIcon, MailWarningIcon } from 'lucide-react';
import { Alert } from '../components/alert';
import { Button } from '../components/button';
import { describeError } from '../lib/errors';
import { useTRPC } from '../lib/trpc';

/**
 * On every dashboard page while the owner's address is unconfirmed: live sending waits on the
 * mailed link (test keys work), and the owner can have a new link sent (throttled by the server:
 * its 429 message is shown as it is). Nothing while loading, on a failed read (the pages show
 * their own errors), or once confirmed (the organization badge says so).
 */
export function OwnerConfirmationBanner() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const organization = useQuery(trpc.organization.current.queryOptions({}));
  const resend = useMutation(
    trpc.organization.resendConfirmation.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.organization.current.queryKey() }),
    }),
  );
  if (!organization.data || organization.data.owner.confirmedAt) return null;
  const { email } = organization.data.owner;
  // Only the owner can ask for the link: the others are told what they wait for.
  if (organization.data.role !== 'owner') {
    return (
      <Alert tone="warning" className="mb-6" icon={<MailWarningIcon className="mt-0.5 size-4 shrink-0" />} title="The owner’s address is not confirmed yet">
        <p data-testid="owner-confirmation-banner">
          Live email is not sent until the owner, {email}, opens the link we mailed them; test keys work meanwhile.
        </p>
      </Alert>
    );
  }
  return (
    <Alert
      tone="warning"
      className="mb-6"
      icon={<MailWarningIcon className="mt-0.5 size-4 shrink-0" />}
      title="Confirm your address"
      action={
        <Button variant="secondary" size="sm" loading={resend.isPending} onClick={() => resend.mutate({})} data-testid="resend-confirmation">
          Resend the link
        </Button>
      }
    >
      <div data-testid="owner-confirmation-banner">
        <p>
          We mailed a link to <strong>{email}</strong>. Live email is not sent until you open it; test keys work meanwhile. The link expires after 24 hours.
        </p>
        {resend.isSuccess && (
          <p className="mt-1 font-medium" role="status">
            A new link is on its way to {resend.data.sentTo}.
          </p>
        )}
        {resend.isError && (
          <p className="mt-1 font-medium text-red-700" role="alert">
            {describeError(resend.error).message}
          </p>
        )}
      </div>
    </Alert>
  );
}

/** The badge's line once the owner's address is confirmed. */
export function OwnerConfirmedLine({ email }: { email: string }) {
  return (
    <p className="mt-1 flex items-center gap-1 truncate text-xs text-emerald-700" data-testid="owner-confirmed" title={`${email} is confirmed`}>
      <MailCheckIcon className="size-3.5 shrink-0" />
      Address confirmed
    </p>
  );
}
