'use client';

import type { DashboardProcedure } from '@/server/vocabulary/dashboard-access';
import { useRoleRefusal } from './role-refusal';

/** In place of an editor's Save, for a role that may not save: why the fields take no input. */
export function ReadOnlyNote({ procedure }: { procedure: DashboardProcedure }) {
  const refusal = useRoleRefusal(procedure);
  if (!refusal) return null;
  return (
    <p className="max-w-xs text-xs text-slate-500" data-testid="role-note">
      Read only. {refusal}
    </p>
  );
}
