'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { authClient } from '../lib/auth-client';
import { afterSignIn } from '../lib/invitation-cookie';

/** People who already have a session go straight to the dashboard (or back to the invitation they were following). */
export function RedirectIfSignedIn() {
  const { data } = authClient.useSession();
  const router = useRouter();
  useEffect(() => {
    if (data) router.replace(afterSignIn());
  }, [data, router]);
  return null;
}
