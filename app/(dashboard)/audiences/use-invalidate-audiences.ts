'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/**
 * Refetches the audience list, any open audience and its contacts after a change: counts move
 * with every write. Read as audiences and as segments (the same rows), both go.
 */
export function useInvalidateAudiences() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries(trpc.audiences.pathFilter()), queryClient.invalidateQueries(trpc.segments.pathFilter())]);
}
