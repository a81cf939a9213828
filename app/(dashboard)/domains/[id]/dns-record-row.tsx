import { Badge } from '../../../components/badge';
import { CopyButton } from '../../../components/copy-button';
import { RecordStatusBadge } from '../status-badges';
import type { DnsRecord } from '../types';
import { RecordValue } from './record-value';

export function DnsRecordRow({ record }: { record: DnsRecord }) {
  return (
    <tr data-testid="dns-record" data-record={record.record} className="align-top">
      <td className="py-3 pr-3 pl-5">
        <div className="font-medium text-slate-900">{record.record}</div>
        {!record.required && (
          <Badge className="mt-1" tone="neutral">
            Recommended
          </Badge>
        )}
      </td>
      <td className="px-3 py-3 font-mono text-xs whitespace-nowrap text-slate-700">{record.type}</td>
      <td className="px-3 py-3">
        <div className="flex items-start gap-2">
          <code className="pt-1.5 font-mono text-xs whitespace-nowrap text-slate-900" data-testid="record-host">
            {record.host}
          </code>
          <CopyButton text={record.host} size="sm" iconOnly describe={`${record.record} host`} />
        </div>
        <div className="mt-1 max-w-52 font-mono text-[11px] break-all text-slate-400" title="The full name, for providers that ask for it">
          {record.name}
        </div>
      </td>
      <td className="min-w-64 px-3 py-3">
        <RecordValue record={record} />
      </td>
      <td className="px-3 py-3 whitespace-nowrap text-slate-700" title={`${record.ttl} seconds`}>
        {record.ttl}
      </td>
      <td className="px-3 py-3 whitespace-nowrap text-slate-700">{record.priority ?? <span className="text-slate-400">—</span>}</td>
      <td className="py-3 pr-5 pl-3">
        <RecordStatusBadge status={record.status} />
      </td>
    </tr>
  );
}
