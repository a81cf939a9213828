import type { ReactNode } from 'react';
import { DataTable } from '../../components/data-table';

const columns = ['Name', 'Token', 'Permission', 'Mode', 'Created', 'Last used', { srOnly: 'Actions' }];

export function ApiKeysTable({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <DataTable label="API keys" columns={columns} busy={busy}>
      {children}
    </DataTable>
  );
}
