import type { ReactNode } from 'react';
import { DataTable } from '../../../components/data-table';

const columns = ['Name', 'Description', 'Default', 'Created', { srOnly: 'Actions' }];

export function TopicsTable({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <DataTable label="Topics" columns={columns} busy={busy}>
      {children}
    </DataTable>
  );
}
