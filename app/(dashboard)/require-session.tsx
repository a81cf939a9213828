'use client';

import { useRouter } from 'next/navigation';
import { useEffect, type ReactNode } from 'react';
import { Spinner } from '../components/spinner';
import { authClient } from '../lib/auth-client';

export type SessionUser = { name: string; email: string };

/** Renders its children for a signed-in person; sends everyone else to /sign-in. */
export function RequireSession({ children }: { children: (user: SessionUser) => ReactNode }) {
  const { data, isPending, error } = authClient.useSession();
  const router = useRouter();
  const signedOut = !isPending && !data;

  useEffect(() => {
    if (signedOut) router.replace('/sign-in');
  }, [signedOut, router]);

  if (!data) {
    return (
      <div className="flex min-h-screen items-center justify-center gap-3 text-sm text-slate-500" role="status" data-testid="session-loading">
        <Spinner className="size-5 text-indigo-600" />
        {error ? 'Could not check your session. Retrying…' : signedOut ? 'Redirecting to sign in…' : 'Loading…'}
      </div>
    );
  }
  return <>{children({ name: data.user.name, email: data.user.email })}</>;
}
