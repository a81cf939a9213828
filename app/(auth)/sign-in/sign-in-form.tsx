'use client';

import Link from 'next/link';
import { TextField } from '../../components/field';
import { authClient } from '../../lib/auth-client';
import { AuthForm } from '../auth-form';

export function SignInForm() {
  return (
    <AuthForm
      title="Sign in"
      subtitle="Welcome back. Sign in to manage your sending."
      submitLabel="Sign in"
      onSubmit={async (form) => {
        const { error } = await authClient.signIn.email({ email: String(form.get('email')), password: String(form.get('password')) });
        // better-auth's own errors carry `message`; the sign-in throttle answers the API's `{error, code}`.
        return error ? (error.message ?? (error as { error?: string }).error ?? 'Could not sign in') : null;
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
