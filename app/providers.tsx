'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, httpLink, splitLink } from '@trpc/client';
import { useState, type ReactNode } from 'react';
import type { AppRouter } from '@/server/routers/types';
import { TRPCProvider } from './lib/trpc';

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // Client errors (4xx) will not fix themselves on a retry.
        retry: (failureCount, error) => {
          const status = (error as { data?: { httpStatus?: number } }).data?.httpStatus;
          if (status && status < 500) return false;
          return failureCount < 2;
        },
      },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        // A query whose input may outgrow a URL (a broadcast's preview carries its bodies) goes as a POST.
        splitLink({
          condition: (op) => op.context.postQuery === true,
          true: httpLink({ url: '/api/trpc', methodOverride: 'POST' }),
          // A slow call (one that waits on the network, e.g. Domain Connect) asks for its own request, so a batch never waits on it.
          // A batch holds at most 20 calls, well under the server's MAX_BATCH_CALLS (server/http/trpc.ts).
          false: splitLink({ condition: (op) => op.context.skipBatch === true, true: httpLink({ url: '/api/trpc' }), false: httpBatchLink({ url: '/api/trpc', maxItems: 20 }) }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
