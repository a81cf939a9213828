'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../../lib/trpc';

/** Send now, schedule or resume; the page shows the answer at once (the broadcast's new status) and the list follows. */
export function useSendBroadcast(onSuccess?: () => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.broadcasts.send.mutationOptions({
      onSuccess: (broadcast) => {
        queryClient.setQueryData(trpc.broadcasts.get.queryKey({ id: broadcast.id }), broadcast);
        void queryClient.invalidateQueries(trpc.broadcasts.list.pathFilter());
        onSuccess?.();
      },
    }),
  );
}
