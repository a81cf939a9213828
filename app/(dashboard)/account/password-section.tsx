'use client';

import { useQueryClient } from '@tanstack/react-query';
import { CircleCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { NewPasswordFields, newPasswordsDiffer } from '../../components/new-password-fields';
import { authClient } from '../../lib/auth-client';
import { useTRPC } from '../../lib/trpc';
import { useFormSubmit } from '../../lib/use-form-submit';
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
  const [fieldRefusal, setFieldRefusal] = useState<ReturnType<typeof refusalWords> | null>(null);
  const [mismatch, setMismatch] = useState(false);
  const [changed, setChanged] = useState(false);

  const { pending, error, onSubmit } = useFormSubmit(async (data, form) => {
    setChanged(false);
    setFieldRefusal(null);
    setMismatch(newPasswordsDiffer(data, 'newPassword'));
    if (newPasswordsDiffer(data, 'newPassword')) return;
    const { error: refused } = await authClient.changePassword({ currentPassword: String(data.get('currentPassword')), newPassword: String(data.get('newPassword')), revokeOtherSessions: true });
    if (refused) {
      const words = refusalWords(refused as { code?: string; message?: string });
      if (!words.field) return words.message;
      setFieldRefusal(words);
      return;
    }
    form.reset();
    setChanged(true);
    await queryClient.invalidateQueries({ queryKey: trpc.account.sessions.queryKey() });
  });

  return (
    <AccountSection id="password" title="Password" description="Changing it signs you out on every other device; this one stays signed in.">
      <form onSubmit={onSubmit} className="max-w-md space-y-4" data-testid="change-password-form">
        {changed && (
          <Alert tone="info" icon={<CircleCheckIcon className="mt-0.5 size-4 shrink-0" />}>
            <span data-testid="password-changed">Password changed. Your other sessions were signed out.</span>
          </Alert>
        )}
        {error && <Alert>{error}</Alert>}
        <TextField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          maxLength={128}
          error={fieldRefusal?.field === 'current' ? fieldRefusal.message : undefined}
        />
        <NewPasswordFields name="newPassword" mismatch={mismatch} error={fieldRefusal?.field === 'new' ? fieldRefusal.message : undefined} />
        <Button type="submit" loading={pending}>
          Change password
        </Button>
      </form>
    </AccountSection>
  );
}
