'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** The gateway's settings change only with the service's configuration: read once per visit. */
export function useSmtpSettings() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.apiKeys.smtpSettings.queryOptions(), staleTime: Infinity });
}
