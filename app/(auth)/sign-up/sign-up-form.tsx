'use client';

import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { TextField } from '../../components/field';
import { authClient } from '../../lib/auth-client';
import { AuthForm } from '../auth-form';

export function SignUpForm() {
  // Arriving from an invitation: the invited address, filled in (the invitation is for it).
  const invitedEmail = useSearchParams().get('email') ?? undefined;
  return (
    <AuthForm
      title="Create your account"
      subtitle="Start on the Free plan. No card needed."
      submitLabel="Create account"
      onSubmit={async (form) => {
        const { error } = await authClient.signUp.email({
          name: String(form.get('name')).trim(),
          email: String(form.get('email')).trim(),
          password: String(form.get('password')),
        });
        return error ? (error.message ?? 'Could not create the account') : null;
      }}
      footer={
        <>
          Already have an account?{' '}
          <Link href="/sign-in" className="font-medium text-indigo-600 hover:text-indigo-500">
            Sign in
          </Link>
        </>
      }
    >
      <TextField label="Name" name="name" autoComplete="name" required maxLength={100} />
      <TextField label="Email" name="email" type="email" autoComplete="email" required defaultValue={invitedEmail} />
      <TextField label="Password" name="password" type="password" autoComplete="new-password" required minLength={8} maxLength={128} hint="At least 8 characters" />
    </AuthForm>
  );
}
