import type { ReactNode } from 'react';
import { DataTable } from '../../components/data-table';

const columns = ['Address', 'Reason', 'Caused by', 'Added', { srOnly: 'Actions' }];

export function SuppressionsTable({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <DataTable label="Suppressed addresses" columns={columns} busy={busy}>
      {children}
    </DataTable>
  );
}
