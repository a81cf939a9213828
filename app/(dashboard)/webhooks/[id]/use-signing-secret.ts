'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../../../lib/trpc';

/**
 * The endpoint's signing secret, fetched only once a person asks to see it and dropped from the
 * cache when they hide it again, so it is never kept in memory longer than it is on screen.
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

  /** A rotation answered with the new secret: show it without asking the server again. */
  const showRotated = (secret: string) => {
    queryClient.setQueryData(trpc.webhooks.secret.queryKey({ id }), { secret });
    setRevealed(true);
  };

  return { revealed, reveal: () => setRevealed(true), hide, showRotated, query };
}
