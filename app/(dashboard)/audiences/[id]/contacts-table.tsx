import type { ReactNode } from 'react';
import { DataTable } from '../../../components/data-table';

/** The contacts, the first column a checkbox each (and one for all in the header). */
export function ContactsTable({ selectAll, children, busy = false }: { selectAll: ReactNode; children: ReactNode; busy?: boolean }) {
  return (
    <DataTable label="Contacts" columns={[{ control: selectAll }, 'Email', 'Name', 'Subscription', 'Added', { srOnly: 'Actions' }]} busy={busy}>
      {children}
    </DataTable>
  );
}
