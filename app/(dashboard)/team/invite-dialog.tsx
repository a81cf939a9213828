'use client';

import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ASSIGNABLE_ROLES, type AssignableRole } from '@/server/vocabulary/roles';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ErrorAlert } from '../../components/error-alert';
import { SelectField, TextField } from '../../components/field';
import { fieldErrors } from '../../lib/field-errors';
import { useTRPC } from '../../lib/trpc';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from './role-words';
import { useInvalidateTeam } from './use-invalidate-team';

/** An address and a role below owner; the link is mailed and works for 7 days. */
export function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateTeam();
  const [role, setRole] = useState<AssignableRole>('developer');
  const invite = useMutation(
    trpc.team.invite.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        onClose();
      },
    }),
  );
  const close = () => {
    if (invite.isPending) return;
    invite.reset();
    onClose();
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    invite.mutate({ email: String(form.get('email')).trim(), role });
  };
  const errors = fieldErrors(invite.error, ['email', 'role'] as const);
  return (
    <Dialog open={open} onClose={close} title="Invite a person" testId="invite-dialog" description="We mail them a link to join this organization. It works once, for 7 days.">
      <form onSubmit={submit} className="space-y-4">
        <TextField label="Email" name="email" type="email" required autoComplete="off" placeholder="colleague@example.com" error={errors.byField.email} />
        <SelectField label="Role" name="role" value={role} onChange={(event) => setRole(event.target.value as AssignableRole)} description={ROLE_DESCRIPTIONS[role]}>
          {ASSIGNABLE_ROLES.map((option) => (
            <option key={option} value={option}>
              {ROLE_LABELS[option]}
            </option>
          ))}
        </SelectField>
        {errors.other ? <ErrorAlert error={errors.other} fallbackTitle="Could not send the invitation" /> : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={invite.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={invite.isPending}>
            Send invitation
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
