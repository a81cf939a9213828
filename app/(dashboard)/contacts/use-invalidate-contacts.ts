'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/**
 * Refetches the contacts (list, contact, its segments) and the audiences (and segments, the same
 * rows) after a change to a contact: a contact joining, leaving or going changes their counts and
 * member lists too.
 */
export function useInvalidateContacts() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.contacts.pathFilter()),
      queryClient.invalidateQueries(trpc.audiences.pathFilter()),
      queryClient.invalidateQueries(trpc.segments.pathFilter()),
    ]);
}
