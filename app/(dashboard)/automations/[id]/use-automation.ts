'use client';

import { useQuery } from '@tanstack/react-query';
import { describeError } from '../../../lib/errors';
import { useTRPC } from '../../../lib/trpc';

/** One automation, and whether the answer was "not found" (an unknown id, another organization's, deleted). */
export function useAutomation(id: string) {
  const trpc = useTRPC();
  const query = useQuery(trpc.automations.get.queryOptions({ id }));
  const code = query.isError ? describeError(query.error).code : null;
  return { query, notFound: code === 'NOT_FOUND' || code === 'VALIDATION_ERROR' };
}
