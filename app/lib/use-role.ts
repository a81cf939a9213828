'use client';

import { useQuery } from '@tanstack/react-query';
import { roleMayCall, type DashboardProcedure } from '@/server/vocabulary/dashboard-access';
import type { Role } from '@/server/vocabulary/roles';
import { useTRPC } from './trpc';

/** The signed-in person's role in the organization they act for; null until it is known. */
export function useRole(): Role | null {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.organization.current.queryOptions({}));
  return data?.role ?? null;
}

/**
 * Whether the person's role may call a procedure, from the same table the server checks: pages
 * show only what the role may do. False until the role is known, so no button flashes and goes.
 */
export function useMay(procedure: DashboardProcedure): boolean {
  const role = useRole();
  return role !== null && roleMayCall(role, procedure);
}
