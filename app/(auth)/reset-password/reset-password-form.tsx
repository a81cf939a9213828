'use client';

import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { CircleCheckIcon, LinkIcon } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '../../components/alert';
import { Button, buttonClasses } from '../../components/button';
import { cx } from '../../components/cx';
import { NewPasswordFields, newPasswordsDiffer } from '../../components/new-password-fields';
import { authClient } from '../../lib/auth-client';
import { useFormSubmit } from '../../lib/use-form-submit';
import { authErrorMessage } from '../auth-error';

type State = 'form' | 'invalid' | 'done';

/**
 * The mailed link lands here through better-auth's check: with `token` while the link works, with
 * `error=INVALID_TOKEN` once it expired or was used. Setting the password uses the token once and
 * signs the person out everywhere; they sign in again with the new one.
 */
export function ResetPasswordForm() {
  const params = useSearchParams();
  const token = params.get('token');
  const [state, setState] = useState<State>(token && !params.get('error') ? 'form' : 'invalid');
  const [mismatch, setMismatch] = useState(false);
  const { pending, error, onSubmit } = useFormSubmit(async (form) => {
    setMismatch(newPasswordsDiffer(form, 'password'));
    if (newPasswordsDiffer(form, 'password')) return;
    const { error: refused } = await authClient.resetPassword({ newPassword: String(form.get('password')), token: token ?? '' });
    if (!refused) setState('done');
    else if (refused.code === 'INVALID_TOKEN') setState('invalid');
    else return authErrorMessage(refused, 'Could not set the new password');
  });

  if (state === 'invalid') {
    return (
      <div className="space-y-5" data-testid="reset-link-invalid">
        <div className="flex size-10 items-center justify-center rounded-full bg-amber-50 text-amber-700">
          <LinkIcon className="size-5" />
        </div>
        <div>
          <h1 className="text-xl font-semibold text-slate-900">This link no longer works</h1>
          <p className="mt-2 text-sm text-slate-600">
            A reset link works once, for 60 minutes. This one has expired or was used already. Ask for a new one: it goes to the same address.
          </p>
        </div>
        <Link href="/forgot-password" className={cx(buttonClasses(), 'w-full')}>
          Ask for a new link
        </Link>
        <p className="text-center text-sm text-slate-500">
          <Link href="/sign-in" className="font-medium text-indigo-600 hover:text-indigo-500">
            Back to sign in
          </Link>
        </p>
      </div>
    );
  }

  if (state === 'done') {
    return (
      <div className="space-y-5" data-testid="password-reset-done">
        <div className="flex size-10 items-center justify-center rounded-full bg-emerald-50 text-emerald-700">
          <CircleCheckIcon className="size-5" />
        </div>
        <div>
          <h1 className="text-xl font-semibold text-slate-900">Password changed</h1>
          <p className="mt-2 text-sm text-slate-600">Your account was signed out everywhere. Sign in with your new password.</p>
        </div>
        <Link href="/sign-in" className={cx(buttonClasses(), 'w-full')}>
          Sign in
        </Link>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} className="space-y-5">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">Choose a new password</h1>
        <p className="mt-1 text-sm text-slate-500">Setting it signs your account out on every device.</p>
      </div>
      {error && <Alert>{error}</Alert>}
      <div className="space-y-4">
        <NewPasswordFields name="password" mismatch={mismatch} />
      </div>
      <Button type="submit" loading={pending} className="w-full">
        Set the new password
      </Button>
    </form>
  );
}
