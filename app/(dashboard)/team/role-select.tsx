'use client';

import { useMutation } from '@tanstack/react-query';
import { ASSIGNABLE_ROLES, type AssignableRole } from '@/server/vocabulary/roles';
import { ErrorAlert } from '../../components/error-alert';
import { useTRPC } from '../../lib/trpc';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from './role-words';
import type { Member } from './types';
import { useInvalidateTeam } from './use-invalidate-team';

/** A member's role, changed as soon as another is chosen (the owner's is changed by a transfer only). */
export function RoleSelect({ member }: { member: Member }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateTeam();
  const change = useMutation(trpc.team.changeRole.mutationOptions({ onSuccess: () => invalidate() }));
  return (
    <div>
      <select
        aria-label={`Role of ${member.email}`}
        value={member.role}
        disabled={change.isPending}
        title={ROLE_DESCRIPTIONS[member.role]}
        onChange={(event) => change.mutate({ userId: member.userId, role: event.target.value as AssignableRole })}
        className="rounded-md border-0 bg-white py-1.5 pr-8 pl-2.5 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600 disabled:bg-slate-50"
      >
        {ASSIGNABLE_ROLES.map((role) => (
          <option key={role} value={role}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </select>
      {change.error && (
        <div className="mt-2">
          <ErrorAlert error={change.error} fallbackTitle="Could not change the role" />
        </div>
      )}
    </div>
  );
}
