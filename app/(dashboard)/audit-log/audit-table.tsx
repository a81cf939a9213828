import type { ReactNode } from 'react';
import { DataTable } from '../../components/data-table';
import { SkeletonRows } from '../../components/skeleton-rows';

const columns = ['Time', 'Who', 'What', 'On', 'From address'];

export function AuditTable({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <DataTable label="Audit log" columns={columns} busy={busy}>
      {children}
    </DataTable>
  );
}

/** Placeholder rows while a page of the log loads. */
export const AuditSkeletonRows = ({ count = 4 }: { count?: number }) => (
  <SkeletonRows testId="audit-skeleton" count={count} cells={['h-4 w-24', 'h-4 w-44', 'h-4 w-48', 'h-4 w-40', 'h-4 w-28']} />
);
