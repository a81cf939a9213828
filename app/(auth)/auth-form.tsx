'use client';

import { useRouter } from 'next/navigation';
import type { ReactNode } from 'react';
import { Alert } from '../components/alert';
import { Button } from '../components/button';
import { afterSignIn } from '../lib/invitation-cookie';
import { useFormSubmit } from '../lib/use-form-submit';

/** The frame shared by sign-in and sign-up: heading, fields, one error line, submit. */
export function AuthForm({ title, subtitle, submitLabel, onSubmit, children, footer }: {
  title: string;
  subtitle: ReactNode;
  submitLabel: string;
  /** Resolves to an error message, null when the person is signed in, or undefined when a next step takes over (the sign-in's code). */
  onSubmit: (form: FormData) => Promise<string | null | undefined>;
  children: ReactNode;
  footer: ReactNode;
}) {
  const router = useRouter();
  const { pending, error, onSubmit: submit } = useFormSubmit(async (form) => {
    const message = await onSubmit(form);
    if (message === null) router.replace(afterSignIn());
    return message;
  });

  return (
    <form onSubmit={submit} className="space-y-5">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
        <p className="mt-1 text-sm text-slate-500">{subtitle}</p>
      </div>
      {error && <Alert>{error}</Alert>}
      <div className="space-y-4">{children}</div>
      <Button type="submit" loading={pending} className="w-full">
        {submitLabel}
      </Button>
      <p className="text-center text-sm text-slate-500">{footer}</p>
    </form>
  );
}
