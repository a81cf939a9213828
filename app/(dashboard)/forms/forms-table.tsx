import type { ReactNode } from 'react';
import { DataTable } from '../../components/data-table';

const columns = ['Form', 'Opt-in', 'Allowed sites', 'Created', { srOnly: 'Open' }];

export function FormsTable({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <DataTable label="Sign-up forms" columns={columns} busy={busy}>
      {children}
    </DataTable>
  );
}
