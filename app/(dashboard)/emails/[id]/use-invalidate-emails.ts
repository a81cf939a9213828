'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../../lib/trpc';

/** Refetches the list and any open email after a change. */
export function useInvalidateEmails() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(trpc.emails.pathFilter());
}
