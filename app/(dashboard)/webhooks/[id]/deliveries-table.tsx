import type { ReactNode } from 'react';
import { DataTable } from '../../../components/data-table';

/** The number of columns, for the row that unfolds a delivery across all of them. */
export const DELIVERY_COLUMNS = ['Event', 'Status', 'Attempts', 'Response', 'Created', 'Next attempt'];

export function DeliveriesTable({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <DataTable label="Deliveries" columns={DELIVERY_COLUMNS} busy={busy}>
      {children}
    </DataTable>
  );
}
