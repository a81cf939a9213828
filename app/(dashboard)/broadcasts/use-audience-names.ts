'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** The organization's audiences by id, from one list request (not one per row). */
export function useAudienceNames() {
  const trpc = useTRPC();
  const query = useQuery(trpc.audiences.list.queryOptions({}));
  const names = new Map((query.data?.data ?? []).map((audience) => [audience.id, audience.name]));
  return { names, loaded: query.isSuccess };
}
