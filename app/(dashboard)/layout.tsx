'use client';

import type { ReactNode } from 'react';
import { DashboardShell } from './dashboard-shell';
import { RequireSession } from './require-session';

export default function DashboardLayout({ children }: { children: ReactNode }) {
  return <RequireSession>{(user) => <DashboardShell user={user}>{children}</DashboardShell>}</RequireSession>;
}
