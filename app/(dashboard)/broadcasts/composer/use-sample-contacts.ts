'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../lib/trpc';

/** How many of the audience's contacts the preview offers to render for. */
export const SAMPLE_CONTACTS = 10;

/** The audience's newest subscribed contacts: whom the preview can show the broadcast as. */
export function useSampleContacts(audienceId: string) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.audiences.listContacts.queryOptions({ id: audienceId, limit: SAMPLE_CONTACTS, subscribed: 'true' }),
    enabled: audienceId !== '',
  });
}
