'use client';

import type { ReactNode } from 'react';
import type { DashboardProcedure } from '@/server/vocabulary/dashboard-access';
import { useMay } from '../lib/use-role';

/** Shows its children only to a role that may call `procedure` (the server refuses the others anyway). */
export function MayCall({ procedure, children, otherwise = null }: { procedure: DashboardProcedure; children: ReactNode; otherwise?: ReactNode }) {
  return useMay(procedure) ? children : otherwise;
}
