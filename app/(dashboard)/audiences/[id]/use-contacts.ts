'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC, useTRPCClient } from '../../../lib/trpc';
import type { ListContactsInput } from '../types';

/** How many contacts a page holds; "Load more" fetches the next page by its cursor. */
export const CONTACTS_PAGE_SIZE = 50;

/** Which contacts the table lists: all, or those of one subscription status. */
export type SubscriptionFilter = 'all' | 'subscribed' | 'unsubscribed';

const SUBSCRIBED_PARAM: Record<SubscriptionFilter, ListContactsInput['subscribed']> = { all: undefined, subscribed: 'true', unsubscribed: 'false' };

/**
 * The audience's contacts, newest first, page after page, narrowed by a part of the address and
 * the subscription. Called by hand rather than with `infiniteQueryOptions`, which adds a
 * `direction` to the input that the procedure's strict input refuses; the key is tRPC's own, so
 * invalidating `audiences` reaches it.
 */
export function useContacts(audienceId: string, { search, subscription }: { search: string; subscription: SubscriptionFilter }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input: ListContactsInput = { id: audienceId, limit: CONTACTS_PAGE_SIZE, search: search || undefined, subscribed: SUBSCRIBED_PARAM[subscription] };
  const query = useInfiniteQuery({
    queryKey: trpc.audiences.listContacts.infiniteQueryKey(input),
    queryFn: ({ pageParam, signal }) => client.audiences.listContacts.query({ ...input, cursor: pageParam ?? undefined }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  const contacts = query.data?.pages.flatMap((page) => page.data);
  return { query, contacts };
}
