'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** After a change: the members, the invitations, and the person's own role (a transfer changes it). */
export function useInvalidateTeam() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.team.members.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.team.invitations.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.organization.current.queryKey() }),
    ]);
}
