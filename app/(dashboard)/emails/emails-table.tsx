import type { ReactNode } from 'react';
import { DataTable } from '../../components/data-table';

const columns = ['From', 'To', 'Subject', 'Status', 'Created', { srOnly: 'Open' }];

export function EmailsTable({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <DataTable label="Emails" columns={columns} busy={busy}>
      {children}
    </DataTable>
  );
}
