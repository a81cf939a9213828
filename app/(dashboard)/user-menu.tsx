'use client';

import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '../components/button';
import { LogOutIcon } from 'lucide-react';
import { authClient } from '../lib/auth-client';
import type { SessionUser } from './require-session';

/** Who is signed in, the way to their account page (password, sessions), and the way out. */
export function UserMenu({ user, onNavigate }: { user: SessionUser; onNavigate?: () => void }) {
  const router = useRouter();
  const onAccountPage = usePathname() === '/account';
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);

  const signOut = async () => {
    setPending(true);
    try {
      await authClient.signOut();
    } finally {
      queryClient.clear();
      router.replace('/sign-in');
    }
  };

  const initial = (user.name || user.email).trim().charAt(0).toUpperCase();
  return (
    <div className="flex items-center gap-1 border-t border-slate-200 pt-4">
      <Link
        href="/account"
        onClick={onNavigate}
        title="Your account: password and sessions"
        aria-current={onAccountPage ? 'page' : undefined}
        data-testid="account-link"
        className={`-ml-1 flex min-w-0 flex-1 items-center gap-3 rounded-md p-1 hover:bg-slate-100 ${onAccountPage ? 'bg-slate-100' : ''}`}
      >
        <span aria-hidden="true" className="flex size-8 shrink-0 items-center justify-center rounded-full bg-slate-200 text-sm font-semibold text-slate-600">
          {initial}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm font-medium text-slate-900" data-testid="user-name">
            {user.name || user.email}
          </span>
          <span className="block truncate text-xs text-slate-500">{user.email}</span>
        </span>
      </Link>
      <Button variant="ghost" size="sm" onClick={() => void signOut()} loading={pending} aria-label="Sign out" title="Sign out">
        {!pending && <LogOutIcon className="size-4" />}
      </Button>
    </div>
  );
}
