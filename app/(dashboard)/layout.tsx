'use client';

import type { ReactNode } from 'react';
import { DashboardShell } from './dashboard-shell';
import { RequireSession } from './require-session';
import { TwoFactorGate } from './two-factor-gate';

export default function DashboardLayout({ children }: { children: ReactNode }) {
  return (
    <RequireSession>
      {(user) => (
        <TwoFactorGate user={user}>
          <DashboardShell user={user}>{children}</DashboardShell>
        </TwoFactorGate>
      )}
    </RequireSession>
  );
}
