'use client';

import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from '@/server/routers/types';

/** The dashboard's typed tRPC hooks (TanStack Query integration). */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();
