'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { authClient } from '../lib/auth-client';

/** People who already have a session go straight to the dashboard. */
export function RedirectIfSignedIn() {
  const { data } = authClient.useSession();
  const router = useRouter();
  useEffect(() => {
    if (data) router.replace('/');
  }, [data, router]);
  return null;
}
