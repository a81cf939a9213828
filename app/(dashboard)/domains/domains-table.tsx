import type { ReactNode } from 'react';
import { DataTable } from '../../components/data-table';

const columns = ['Domain', 'Status', 'Created', { srOnly: 'Open' }];

export function DomainsTable({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <DataTable label="Domains" columns={columns} busy={busy}>
      {children}
    </DataTable>
  );
}
