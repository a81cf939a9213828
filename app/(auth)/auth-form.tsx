'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from '../components/alert';
import { Button } from '../components/button';
import { afterSignIn } from '../lib/invitation-cookie';

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
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const message = await onSubmit(new FormData(event.currentTarget));
      if (message) setError(message);
      else if (message === null) router.replace(afterSignIn());
    } catch {
      setError('Could not reach the server. Check your connection and try again.');
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-5">
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
