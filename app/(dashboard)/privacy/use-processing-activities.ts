'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** The organization's record of processing activities, read fresh each time the page opens. */
export function useProcessingActivities() {
  const trpc = useTRPC();
  return useQuery(trpc.privacy.processingActivities.queryOptions({}, { refetchOnMount: 'always' }));
}
