'use client';

import { useQueryClient } from '@tanstack/react-query';
import { CircleCheckIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { authClient } from '../../lib/auth-client';
import { useTRPC } from '../../lib/trpc';
import { AccountSection } from './account-section';

/** better-auth's refusal in the page's words; the throttle's `{error, code}` as it says it. */
function refusalWords(error: { code?: string; message?: string; error?: string }): { field: 'current' | 'new' | null; message: string } {
  switch (error.code) {
    case 'INVALID_PASSWORD':
      return { field: 'current', message: 'This is not your current password' };
    case 'PASSWORD_TOO_SHORT':
      return { field: 'new', message: 'At least 8 characters' };
    case 'PASSWORD_TOO_LONG':
      return { field: 'new', message: 'At most 128 characters' };
    default:
      return { field: null, message: error.message ?? error.error ?? 'Could not change the password' };
  }
}

/** Change the password with the current one; every other session is signed out with it, this one stays. */
export function PasswordSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<ReturnType<typeof refusalWords> | null>(null);
  const [mismatch, setMismatch] = useState(false);
  const [changed, setChanged] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const newPassword = String(data.get('newPassword'));
    setChanged(false);
    setRefusal(null);
    if (newPassword !== String(data.get('confirm'))) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    setPending(true);
    try {
      const { error } = await authClient.changePassword({ currentPassword: String(data.get('currentPassword')), newPassword, revokeOtherSessions: true });
      if (error) {
        setRefusal(refusalWords(error as { code?: string; message?: string }));
        return;
      }
      form.reset();
      setChanged(true);
      await queryClient.invalidateQueries({ queryKey: trpc.account.sessions.queryKey() });
    } catch {
      setRefusal({ field: null, message: 'Could not reach the server. Check your connection and try again.' });
    } finally {
      setPending(false);
    }
  };

  return (
    <AccountSection id="password" title="Password" description="Changing it signs you out on every other device; this one stays signed in.">
      <form onSubmit={(event) => void submit(event)} className="max-w-md space-y-4" data-testid="change-password-form">
        {changed && (
          <Alert tone="info" icon={<CircleCheckIcon className="mt-0.5 size-4 shrink-0" />}>
            <span data-testid="password-changed">Password changed. Your other sessions were signed out.</span>
          </Alert>
        )}
        {refusal && !refusal.field && <Alert>{refusal.message}</Alert>}
        <TextField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          maxLength={128}
          error={refusal?.field === 'current' ? refusal.message : undefined}
        />
        <TextField
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={128}
          hint="At least 8 characters"
          error={refusal?.field === 'new' ? refusal.message : undefined}
        />
        <TextField
          label="Repeat the new password"
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={128}
          error={mismatch ? 'The two passwords differ' : undefined}
        />
        <Button type="submit" loading={pending}>
          Change password
        </Button>
      </form>
    </AccountSection>
  );
}
