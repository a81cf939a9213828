'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** Refetches the audience list, any open audience and its contacts after a change: counts move with every write. */
export function useInvalidateAudiences() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(trpc.audiences.pathFilter());
}
