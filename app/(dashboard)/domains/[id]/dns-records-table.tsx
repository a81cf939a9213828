import type { ReactNode } from 'react';
import { DataTable } from '../../../components/data-table';

const columns = ['Record', 'Type', 'Host', 'Value', 'TTL', 'Priority', 'Status'];

export function DnsRecordsTable({ children }: { children: ReactNode }) {
  return (
    <DataTable label="DNS records" columns={columns} dense stackOnPhones>
      {children}
    </DataTable>
  );
}
