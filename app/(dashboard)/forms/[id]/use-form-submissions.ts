'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC, useTRPCClient } from '../../../lib/trpc';

export const SUBMISSIONS_PAGE_SIZE = 20;

/** A form's accepted submissions, newest first, page after page (as the other paged lists). */
export function useFormSubmissions(formId: string) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input = { id: formId, limit: SUBMISSIONS_PAGE_SIZE };
  const query = useInfiniteQuery({
    queryKey: trpc.forms.submissions.infiniteQueryKey(input),
    queryFn: ({ pageParam, signal }) => client.forms.submissions.query({ ...input, cursor: pageParam ?? undefined }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  return { query, submissions: query.data?.pages.flatMap((page) => page.data) };
}
