import type { ReactNode } from 'react';
import { DataTable } from '../../components/data-table';

const columns = ['Broadcast', 'Status', 'Audience', { numeric: 'Sent' }, { numeric: 'Delivered' }, { numeric: 'Opened' }, 'When', { srOnly: 'Open' }];

export function BroadcastsTable({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <DataTable label="Broadcasts" columns={columns} busy={busy}>
      {children}
    </DataTable>
  );
}
