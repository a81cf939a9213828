'use client';

import { useState, type FormEvent } from 'react';

export const UNREACHABLE = 'Could not reach the server. Check your connection and try again.';

/**
 * A form's submit handling, shared by the sign-in, sign-up, password and two-factor forms: the
 * default post prevented, pending while `action` runs, the earlier error cleared, and a failed
 * request (no answer at all) said in words. `action` answers the error to show, if any.
 */
export function useFormSubmit(action: (form: FormData, element: HTMLFormElement) => Promise<string | null | undefined | void>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    setPending(true);
    setError(null);
    try {
      const message = await action(new FormData(element), element);
      if (message) setError(message);
    } catch {
      setError(UNREACHABLE);
    } finally {
      setPending(false);
    }
  };
  return { pending, error, setError, onSubmit: (event: FormEvent<HTMLFormElement>) => void submit(event) };
}
