'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC, useTRPCClient } from '../../lib/trpc';
import type { ListContactProfilesInput } from './types';

/** How many contacts a page holds; "Load more" fetches the next page by its cursor. */
export const CONTACTS_PAGE_SIZE = 50;

/**
 * The organization's contacts, newest first, page after page, narrowed by a part of the address
 * and a segment. Called by hand as the audience's contacts are (their `use-contacts.ts` says why);
 * the key is tRPC's own, so invalidating `contacts` reaches it.
 */
export function useContactProfiles({ search, segmentId }: { search: string; segmentId: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input: ListContactProfilesInput = { limit: CONTACTS_PAGE_SIZE, search: search || undefined, segment_id: segmentId || undefined };
  const query = useInfiniteQuery({
    queryKey: trpc.contacts.list.infiniteQueryKey(input),
    queryFn: ({ pageParam, signal }) => client.contacts.list.query({ ...input, cursor: pageParam ?? undefined }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  const contacts = query.data?.pages.flatMap((page) => page.data);
  return { query, contacts };
}
