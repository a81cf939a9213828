'use client';

import { useQuery } from '@tanstack/react-query';
import { UserPlusIcon } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { DataTable } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { RetryButton } from '../../components/retry-button';
import { SkeletonRows } from '../../components/skeleton-rows';
import { formatDate, formatDateTime } from '../../lib/format';
import { useTRPC } from '../../lib/trpc';
import { useMay } from '../../lib/use-role';
import { authClient } from '../../lib/auth-client';
import { InvitationsPanel } from './invitations-panel';
import { InviteDialog } from './invite-dialog';
import { RemoveMemberButton } from './remove-member-button';
import { RoleSelect } from './role-select';
import { ROLE_DESCRIPTIONS, ROLE_LABELS, ROLE_TONES } from './role-words';
import { TransferOwnershipButton } from './transfer-ownership-button';
import type { Member } from './types';

function MemberRow({ member, manage, transfer, isYou }: { member: Member; manage: boolean; transfer: boolean; isYou: boolean }) {
  const owner = member.role === 'owner';
  return (
    <tr data-testid="member-row" data-email={member.email} className="hover:bg-slate-50/60">
      <td className="py-3 pr-4 pl-5 font-medium text-slate-900">
        {member.name || '—'}
        {isYou && <span className="ml-2 text-xs font-normal text-slate-500">(you)</span>}
      </td>
      <td className="px-4 py-3 text-slate-600">{member.email}</td>
      <td className="px-4 py-3">
        {manage && !owner ? (
          <RoleSelect member={member} />
        ) : (
          <span title={ROLE_DESCRIPTIONS[member.role]}>
            <Badge tone={ROLE_TONES[member.role]}>{ROLE_LABELS[member.role]}</Badge>
          </span>
        )}
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <time dateTime={member.joinedAt} title={formatDateTime(member.joinedAt)}>
          {formatDate(member.joinedAt)}
        </time>
      </td>
      <td className="py-3 pr-5 pl-4">
        <div className="flex justify-end gap-2">
          {transfer && !owner && <TransferOwnershipButton member={member} />}
          {manage && !owner && <RemoveMemberButton member={member} />}
        </div>
      </td>
    </tr>
  );
}

const columns = ['Name', 'Email', 'Role', 'Joined', { srOnly: 'Actions' }];

/** The organization's people: their roles, changed and removed by the owner and admins, and invitations out. */
export function TeamView() {
  const trpc = useTRPC();
  const members = useQuery(trpc.team.members.queryOptions({}));
  const { data: session } = authClient.useSession();
  const manage = useMay('team.changeRole');
  const transfer = useMay('team.transferOwnership');
  const [inviting, setInviting] = useState(false);

  return (
    <>
      <PageHeader
        title="Team"
        description="The people who work in this organization and what each may do. API keys are not people: they keep their own permissions."
        actions={
          manage ? (
            <Button onClick={() => setInviting(true)}>
              <UserPlusIcon className="size-4" />
              Invite a person
            </Button>
          ) : undefined
        }
      />

      {members.isError ? (
        <ErrorAlert error={members.error} fallbackTitle="Could not load the team" action={<RetryButton query={members} />} />
      ) : (
        <DataTable label="Members" columns={columns} busy={members.isPending}>
          {members.isPending ? (
            <SkeletonRows cells={['h-4 w-28', 'h-4 w-48', 'h-5 w-20', 'h-4 w-20', 'h-8 w-20 ml-auto']} testId="member-skeleton" />
          ) : (
            members.data.map((member) => <MemberRow key={member.userId} member={member} manage={manage} transfer={transfer} isYou={member.userId === session?.user.id} />)
          )}
        </DataTable>
      )}

      {members.data?.length === 1 && manage && (
        <p className="mt-4 text-sm text-slate-500" data-testid="team-alone">
          You are the only member. Invite colleagues to give them their own sign-in, with only the access their role needs.
        </p>
      )}

      {manage && <InvitationsPanel />}
      {manage && <InviteDialog open={inviting} onClose={() => setInviting(false)} />}
    </>
  );
}
