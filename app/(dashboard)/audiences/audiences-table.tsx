import type { ReactNode } from 'react';
import { DataTable } from '../../components/data-table';

const columns = ['Name', 'Contacts', 'Created', { srOnly: 'Actions' }];

export function AudiencesTable({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <DataTable label="Audiences" columns={columns} busy={busy}>
      {children}
    </DataTable>
  );
}
