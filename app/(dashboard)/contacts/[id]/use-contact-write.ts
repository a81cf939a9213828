'use client';

import type { DashboardProcedure } from '@/server/vocabulary/dashboard-access';
import { useDashboardMode } from '../../../lib/dashboard-mode';
import { useMay } from '../../../lib/use-role';

/**
 * Whether a change to the contact is offered (the role may call `procedure`) and whether it is
 * off for now (test mode: contacts are live state, and the server refuses the change there).
 */
export function useContactWrite(procedure: DashboardProcedure): { offered: boolean; disabled: boolean } {
  const may = useMay(procedure);
  const testMode = useDashboardMode() === 'test';
  return { offered: may, disabled: testMode };
}
