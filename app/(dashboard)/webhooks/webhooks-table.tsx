import type { ReactNode } from 'react';
import { DataTable } from '../../components/data-table';

const columns = ['Endpoint', 'Events', 'Last 24 hours', 'Last failure', 'Created', { srOnly: 'Open' }];

export function WebhooksTable({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <DataTable label="Webhook endpoints" columns={columns} busy={busy}>
      {children}
    </DataTable>
  );
}
