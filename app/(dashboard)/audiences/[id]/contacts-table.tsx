import type { ReactNode } from 'react';
import { DataTable } from '../../../components/data-table';

/**
 * The contacts; when `selectAll` is given (a role that may delete them), the first column is a
 * checkbox each and one for all in the header. Without it there is no such column at all, not an
 * empty one.
 */
export function ContactsTable({ selectAll, children, busy = false }: { selectAll?: ReactNode; children: ReactNode; busy?: boolean }) {
  return (
    <DataTable label="Contacts" columns={[...(selectAll ? [{ control: selectAll }] : []), 'Email', 'Name', 'Subscription', 'Added', { srOnly: 'Actions' }]} busy={busy}>
      {children}
    </DataTable>
  );
}
