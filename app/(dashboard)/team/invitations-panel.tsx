'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { DataTable } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { RelativeTime } from '../../components/relative-time';
import { RetryButton } from '../../components/retry-button';
import { SkeletonRows } from '../../components/skeleton-rows';
import { useTRPC } from '../../lib/trpc';
import { ROLE_LABELS, ROLE_TONES } from './role-words';
import type { Invitation } from './types';
import { useInvalidateTeam } from './use-invalidate-team';

function InvitationRow({ invitation }: { invitation: Invitation }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateTeam();
  const resend = useMutation(trpc.team.resendInvitation.mutationOptions({ onSuccess: () => invalidate() }));
  const revoke = useMutation(trpc.team.revokeInvitation.mutationOptions({ onSuccess: () => invalidate() }));
  const error = resend.error ?? revoke.error;
  return (
    <tr data-testid="invitation-row" className="hover:bg-slate-50/60">
      <td className="py-3 pr-4 pl-5 font-medium text-slate-900">{invitation.email}</td>
      <td className="px-4 py-3">
        <Badge tone={ROLE_TONES[invitation.role]}>{ROLE_LABELS[invitation.role]}</Badge>
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        {invitation.expired ? (
          <Badge tone="amber">Expired</Badge>
        ) : (
          <>
            expires <RelativeTime iso={invitation.expiresAt} future />
          </>
        )}
      </td>
      <td className="py-3 pr-5 pl-4">
        <div className="flex justify-end gap-2">
          <Button variant="secondary" size="sm" loading={resend.isPending} onClick={() => resend.mutate({ id: invitation.id })} aria-label={`Resend the invitation to ${invitation.email}`}>
            {resend.isSuccess ? 'Sent' : 'Resend'}
          </Button>
          <Button variant="secondary" size="sm" className="text-red-700" loading={revoke.isPending} onClick={() => revoke.mutate({ id: invitation.id })} aria-label={`Revoke the invitation to ${invitation.email}`}>
            Revoke
          </Button>
        </div>
        {error && (
          <div className="mt-2">
            <ErrorAlert error={error} fallbackTitle="Could not change the invitation" />
          </div>
        )}
      </td>
    </tr>
  );
}

const columns = ['Email', 'Role', 'Link', { srOnly: 'Actions' }];

/** Invitations not yet accepted: resend (a new link, a new week) or revoke. Nothing is shown when there are none. */
export function InvitationsPanel() {
  const trpc = useTRPC();
  const invitations = useQuery(trpc.team.invitations.queryOptions({}));
  if (invitations.data?.length === 0) return null;
  return (
    <section className="mt-10" aria-labelledby="pending-invitations">
      <h2 id="pending-invitations" className="mb-3 text-base font-semibold text-slate-900">
        Pending invitations
      </h2>
      {invitations.isError ? (
        <ErrorAlert error={invitations.error} fallbackTitle="Could not load the invitations" action={<RetryButton query={invitations} />} />
      ) : (
        <DataTable label="Pending invitations" columns={columns} busy={invitations.isPending}>
          {invitations.isPending ? (
            <SkeletonRows cells={['h-4 w-48', 'h-5 w-20', 'h-4 w-28', 'h-8 w-36 ml-auto']} count={2} testId="invitation-skeleton" />
          ) : (
            invitations.data.map((invitation) => <InvitationRow key={invitation.id} invitation={invitation} />)
          )}
        </DataTable>
      )}
    </section>
  );
}
