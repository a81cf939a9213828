'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { authClient } from '../lib/auth-client';
import { afterSignIn } from '../lib/invitation-cookie';

/** A mailed reset link works whoever is signed in in this browser: it signs every session out anyway. */
const OPEN_WHEN_SIGNED_IN = ['/reset-password'];

/** People who already have a session go straight to the dashboard (or back to the invitation they were following). */
export function RedirectIfSignedIn() {
  const { data } = authClient.useSession();
  const router = useRouter();
  const pathname = usePathname();
  const stays = OPEN_WHEN_SIGNED_IN.includes(pathname);
  useEffect(() => {
    if (data && !stays) router.replace(afterSignIn());
  }, [data, router, stays]);
  return null;
}
