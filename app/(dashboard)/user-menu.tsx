'use client';

import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '../components/button';
import { LogOutIcon } from 'lucide-react';
import { authClient } from '../lib/auth-client';
import type { SessionUser } from './require-session';

/** Who is signed in, their plan, and the way out. */
export function UserMenu({ user }: { user: SessionUser }) {
  const router = useRouter();
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
    <div className="flex items-center gap-3 border-t border-slate-200 pt-4">
      <span aria-hidden="true" className="flex size-8 shrink-0 items-center justify-center rounded-full bg-slate-200 text-sm font-semibold text-slate-600">
        {initial}
      </span>
      <div className="min-w-0 flex-1">
        <Link href="/account" className="block truncate text-sm font-medium text-slate-900 hover:text-indigo-600" data-testid="user-name" title="Your account">
          {user.name || user.email}
        </Link>
        <p className="truncate text-xs text-slate-500">{user.email}</p>
      </div>
      <Button variant="ghost" size="sm" onClick={() => void signOut()} loading={pending} aria-label="Sign out" title="Sign out">
        {!pending && <LogOutIcon className="size-4" />}
      </Button>
    </div>
  );
}
