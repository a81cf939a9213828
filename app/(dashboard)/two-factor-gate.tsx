'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { Logo } from '../components/logo';
import { Button } from '../components/button';
import { Spinner } from '../components/spinner';
import { authClient } from '../lib/auth-client';
import { useTRPC } from '../lib/trpc';
import { TwoFactorSetup } from './account/two-factor-setup';
import type { SessionUser } from './require-session';

/**
 * A member of an organization that requires two-factor sign-in, who has not set it up, gets the
 * set-up in place of the dashboard: the server refuses them everything else meanwhile
 * (TWO_FACTOR_REQUIRED). If the status cannot be read, the pages show their own errors.
 */
export function TwoFactorGate({ user, children }: { user: SessionUser; children: ReactNode }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const status = useQuery(trpc.twoFactor.status.queryOptions({}));
  const [signingOut, setSigningOut] = useState(false);

  if (status.isPending) {
    return (
      <div className="flex min-h-screen items-center justify-center gap-3 text-sm text-slate-500" role="status">
        <Spinner className="size-5 text-indigo-600" />
        Loading…
      </div>
    );
  }
  if (!status.data?.mustSetUp) return <>{children}</>;

  const signOut = async () => {
    setSigningOut(true);
    try {
      await authClient.signOut();
    } finally {
      queryClient.clear();
      router.replace('/sign-in');
    }
  };

  return (
    <div className="flex min-h-screen items-start justify-center bg-slate-50 px-4 py-12 sm:py-20">
      <main className="w-full max-w-2xl rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8" data-testid="two-factor-required">
        <div className="flex items-center justify-between gap-4">
          <Logo />
          <Button variant="ghost" size="sm" loading={signingOut} onClick={() => void signOut()}>
            Sign out
          </Button>
        </div>
        <h1 className="mt-8 text-xl font-semibold text-slate-900">Set up two-factor sign-in</h1>
        <p className="mt-1 mb-6 text-sm text-slate-500">
          Your organization requires a second step at sign-in for every member. Set it up for {user.email} to continue to the dashboard.
        </p>
        <TwoFactorSetup onDone={() => void queryClient.invalidateQueries()} />
      </main>
    </div>
  );
}
