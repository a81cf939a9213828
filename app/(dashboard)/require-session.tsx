'use client';

import { useRouter } from 'next/navigation';
import { useEffect, type ReactNode } from 'react';
import { Spinner } from '../components/spinner';
import { authClient } from '../lib/auth-client';

export type SessionUser = { name: string; email: string };

/** How long after a failed session check it is asked again. */
const RETRY_MS = 2_000;

/**
 * Renders its children for a signed-in person; sends to /sign-in only those the server answered
 * has no session. A check that failed (the server slow or away, a 5xx, a refused request) says
 * nothing about the session: it is asked again rather than taken as signed out, which put a
 * signed-in person on the sign-in page after one failed request.
 */
export function RequireSession({ children }: { children: (user: SessionUser) => ReactNode }) {
  const { data, isPending, error, refetch } = authClient.useSession();
  const router = useRouter();
  // A 401 is the server saying the session is gone (better-auth's answer when it vanished mid-refresh).
  const refused = !error || (error as { status?: number }).status === 401;
  const signedOut = !isPending && !data && refused;
  const failed = !isPending && !data && !refused;

  useEffect(() => {
    if (signedOut) router.replace('/sign-in');
  }, [signedOut, router]);

  useEffect(() => {
    if (!failed) return;
    const timer = setTimeout(() => void refetch(), RETRY_MS);
    return () => clearTimeout(timer);
  }, [failed, refetch]);

  if (!data) {
    return (
      <div className="flex min-h-screen items-center justify-center gap-3 text-sm text-slate-500" role="status" data-testid="session-loading">
        <Spinner className="size-5 text-indigo-600" />
        {failed ? 'Could not check your session. Retrying…' : signedOut ? 'Redirecting to sign in…' : 'Loading…'}
      </div>
    );
  }
  return <>{children({ name: data.user.name, email: data.user.email })}</>;
}
