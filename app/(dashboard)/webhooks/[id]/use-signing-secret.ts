'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../../../lib/trpc';

export type SecretMode = 'live' | 'test';

/**
 * The endpoint's signing secrets, fetched only once a person asks to see them and dropped from the
 * cache when they hide them again, so they are never kept in memory longer than they are on screen.
 * In live mode the answer has both (`secret` live, `testSecret`); in test mode the test one only.
 */
export function useSigningSecret(id: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [revealed, setRevealed] = useState(false);
  const filter = trpc.webhooks.secret.queryFilter({ id });
  const query = useQuery({ ...trpc.webhooks.secret.queryOptions({ id }), enabled: revealed, staleTime: Infinity, refetchOnWindowFocus: false });

  const hide = () => {
    setRevealed(false);
    queryClient.removeQueries(filter);
  };

  /** A rotation answered with the new secret of one mode: show it without asking the server again. */
  const showRotated = (rotated: { mode: SecretMode; secret: string }) => {
    const key = trpc.webhooks.secret.queryKey({ id });
    const shown = queryClient.getQueryData(key);
    if (shown) queryClient.setQueryData(key, shown.mode === rotated.mode ? { ...shown, secret: rotated.secret } : { ...shown, testSecret: rotated.secret });
    else if (rotated.mode === 'live') queryClient.setQueryData(key, { mode: 'live', secret: rotated.secret });
    // A rotated test secret with nothing shown yet: revealing asks the server for both.
    setRevealed(true);
  };

  return { revealed, reveal: () => setRevealed(true), hide, showRotated, query };
}
