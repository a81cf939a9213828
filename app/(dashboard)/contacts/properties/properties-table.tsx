import type { ReactNode } from 'react';
import { DataTable } from '../../../components/data-table';

const columns = ['Key', 'Type', 'Fallback', 'Created', { srOnly: 'Actions' }];

export function PropertiesTable({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <DataTable label="Contact properties" columns={columns} busy={busy}>
      {children}
    </DataTable>
  );
}
