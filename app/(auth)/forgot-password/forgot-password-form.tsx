'use client';

import Link from 'next/link';
import { MailCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { authClient } from '../../lib/auth-client';
import { useFormSubmit } from '../../lib/use-form-submit';
import { authErrorMessage } from '../auth-error';

const backToSignIn = (
  <Link href="/sign-in" className="font-medium text-indigo-600 hover:text-indigo-500">
    Back to sign in
  </Link>
);

/**
 * Asks for a reset link. The answer is the same whether the address has an account or not (the
 * server tells nobody who has one), so the page says "if".
 */
export function ForgotPasswordForm() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { pending, error, onSubmit } = useFormSubmit(async (form) => {
    const email = String(form.get('email')).trim();
    const { error: refused } = await authClient.requestPasswordReset({ email });
    if (refused) return authErrorMessage(refused, 'Could not ask for a reset link');
    setSentTo(email);
  });

  if (sentTo) {
    return (
      <div className="space-y-5" data-testid="reset-link-sent">
        <div className="flex size-10 items-center justify-center rounded-full bg-indigo-50 text-indigo-600">
          <MailCheckIcon className="size-5" />
        </div>
        <div>
          <h1 className="text-xl font-semibold text-slate-900">Check your inbox</h1>
          <p className="mt-2 text-sm text-slate-600">
            If an EU Mail account uses <strong className="font-medium text-slate-900">{sentTo}</strong>, we have mailed it a link to choose a new password. The link works once, for
            60 minutes.
          </p>
          <p className="mt-2 text-sm text-slate-500">Nothing arrived after a few minutes? Look in the spam folder, or ask again.</p>
        </div>
        <div className="flex items-center justify-between text-sm">
          <button type="button" className="font-medium text-indigo-600 hover:text-indigo-500" onClick={() => setSentTo(null)}>
            Ask again
          </button>
          {backToSignIn}
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} className="space-y-5">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">Reset your password</h1>
        <p className="mt-1 text-sm text-slate-500">Give the address you sign in with; we will mail it a link to choose a new password.</p>
      </div>
      {error && <Alert>{error}</Alert>}
      <TextField label="Email" name="email" type="email" autoComplete="email" required />
      <Button type="submit" loading={pending} className="w-full">
        Mail me a reset link
      </Button>
      <p className="text-center text-sm text-slate-500">{backToSignIn}</p>
    </form>
  );
}
