import type { ReactNode } from 'react';
import { DataTable } from '../../components/data-table';

const columns = ['Email', 'Name', 'Added', { srOnly: 'Open' }];

export function ContactsTable({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <DataTable label="Contacts" columns={columns} busy={busy}>
      {children}
    </DataTable>
  );
}
