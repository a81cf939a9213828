'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MailCheckIcon, MailWarningIcon } from 'lucide-react';
import { Alert } from '../components/alert';
import { PendingLinkAlert } from '../components/pending-link-alert';
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
    <PendingLinkAlert
      className="mb-6"
      title="Confirm your address"
      testId="owner-confirmation-banner"
      resend={{ onResend: () => resend.mutate({}), isPending: resend.isPending, sentTo: resend.data?.sentTo, error: resend.error, testId: 'resend-confirmation' }}
    >
      <p>
        We mailed a link to <strong>{email}</strong>. Live email is not sent until you open it; test keys work meanwhile. The link expires after 24 hours.
      </p>
    </PendingLinkAlert>
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
