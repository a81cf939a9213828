'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** Refetches the template list, any open template and its previews after a change. */
export function useInvalidateTemplates() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(trpc.templates.pathFilter());
}
