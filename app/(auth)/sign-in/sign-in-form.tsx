'use client';

import Link from 'next/link';
import { useState } from 'react';
import { TextField } from '../../components/field';
import { authClient } from '../../lib/auth-client';
import { authErrorMessage } from '../../lib/auth-errors';
import { AuthForm } from '../auth-form';
import { TwoFactorStep } from './two-factor-step';

/**
 * The password, then (for a person with two-factor sign-in) a code: better-auth answers the
 * password with `twoFactorRedirect` and a short-lived challenge cookie instead of a session.
 */
export function SignInForm() {
  const [codeStep, setCodeStep] = useState(false);
  if (codeStep) return <TwoFactorStep onStartOver={() => setCodeStep(false)} />;
  return (
    <AuthForm
      title="Sign in"
      subtitle="Welcome back. Sign in to manage your sending."
      submitLabel="Sign in"
      onSubmit={async (form) => {
        const { data, error } = await authClient.signIn.email({ email: String(form.get('email')), password: String(form.get('password')) });
        if (error) return authErrorMessage(error, 'Could not sign in');
        if (data && 'twoFactorRedirect' in data && data.twoFactorRedirect) {
          setCodeStep(true);
          return undefined;
        }
        return null;
      }}
      footer={
        <>
          No account yet?{' '}
          <Link href="/sign-up" className="font-medium text-indigo-600 hover:text-indigo-500">
            Create one
          </Link>
        </>
      }
    >
      <TextField label="Email" name="email" type="email" autoComplete="email" required />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        hint={
          <Link href="/forgot-password" className="font-medium text-indigo-600 hover:text-indigo-500">
            Forgot password?
          </Link>
        }
      />
    </AuthForm>
  );
}
