'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../lib/trpc';

/** The subscribed contacts of the saved broadcast's audience now, counted by the server when asked (the preview of the saved version carries it). */
export function useRecipientCount(broadcastId: string, enabled: boolean) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.broadcasts.preview.queryOptions({ id: broadcastId }, { trpc: { context: { postQuery: true } } }),
    enabled,
    staleTime: 0,
    retry: false,
  });
  return { recipients: query.data?.recipients ?? null, query };
}
