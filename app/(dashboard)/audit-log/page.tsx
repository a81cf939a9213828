import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AuditLogView } from './audit-log-view';

export const metadata: Metadata = { title: 'Audit log' };

/** The view reads its filter from the URL, which is only known in the browser: hence the boundary. */
export default function AuditLogPage() {
  return (
    <Suspense>
      <AuditLogView />
    </Suspense>
  );
}
