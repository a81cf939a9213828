import type { ReactNode } from 'react';
import { DataTable } from '../../components/data-table';

const columns = ['Name', 'Subject', 'Variables', 'Updated', { srOnly: 'Open' }];

export function TemplatesTable({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <DataTable label="Templates" columns={columns} busy={busy}>
      {children}
    </DataTable>
  );
}
