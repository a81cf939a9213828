import { Badge } from '../../../components/badge';
import { CopyButton } from '../../../components/copy-button';
import { cx } from '../../../components/cx';
import { RecordStatusBadge } from '../status-badges';
import type { DnsRecord } from '../types';
import { RecordValue } from './record-value';

/*
 * On a phone the table is stacked (DataTable's stackOnPhones): a row is a card with the record,
 * its type and status on top, then the host and the value each across the full width with its
 * copy button, then TTL and priority; each cell names itself, since the header is not shown.
 */
const CARD = 'max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-3 max-sm:px-4 max-sm:py-4';
const LABEL = 'max-sm:before:text-[11px] max-sm:before:font-semibold max-sm:before:tracking-wide max-sm:before:text-slate-500 max-sm:before:uppercase';
const FULL_WIDTH = `max-sm:mt-3 max-sm:basis-full max-sm:min-w-0 max-sm:before:mb-1 max-sm:before:block ${LABEL}`;
const INLINE = `max-sm:mt-3 max-sm:before:mr-1.5 ${LABEL}`;

export function DnsRecordRow({ record }: { record: DnsRecord }) {
  return (
    <tr data-testid="dns-record" data-record={record.record} className={cx('align-top', CARD)}>
      <td className="py-3 pr-3 pl-5 max-sm:order-1 max-sm:flex max-sm:items-center max-sm:gap-2 max-sm:p-0">
        <div className="font-medium text-slate-900">{record.record}</div>
        {!record.required && (
          <Badge className="mt-1 max-sm:mt-0" tone="neutral">
            Recommended
          </Badge>
        )}
      </td>
      <td className="px-3 py-3 font-mono text-xs whitespace-nowrap text-slate-700 max-sm:order-2 max-sm:p-0">{record.type}</td>
      <td className={cx('px-3 py-3 max-sm:order-4 max-sm:p-0 max-sm:before:content-["Host"]', FULL_WIDTH)}>
        <div className="flex items-start gap-2">
          <code className="min-w-0 pt-1.5 font-mono text-xs whitespace-nowrap text-slate-900 max-sm:flex-1 max-sm:whitespace-normal max-sm:wrap-anywhere" data-testid="record-host">
            {record.host}
          </code>
          <CopyButton text={record.host} size="sm" iconOnly describe={`${record.record} host`} />
        </div>
        <div className="mt-1 max-w-52 font-mono text-[11px] break-all text-slate-400 max-sm:max-w-none" title="The full name, for providers that ask for it">
          {record.name}
        </div>
      </td>
      <td className={cx('px-3 py-3 sm:min-w-64 max-sm:order-5 max-sm:p-0 max-sm:before:content-["Value"]', FULL_WIDTH)}>
        <RecordValue record={record} />
      </td>
      <td className={cx('px-3 py-3 whitespace-nowrap text-slate-700 max-sm:order-6 max-sm:p-0 max-sm:before:content-["TTL"]', INLINE)} title={`${record.ttl} seconds`}>
        {record.ttl}
      </td>
      <td
        className={cx(
          'px-3 py-3 whitespace-nowrap text-slate-700 max-sm:order-7 max-sm:p-0 max-sm:before:content-["Priority"]',
          INLINE,
          record.priority === undefined && 'max-sm:hidden',
        )}
      >
        {record.priority ?? <span className="text-slate-400">—</span>}
      </td>
      <td className="py-3 pr-5 pl-3 max-sm:order-3 max-sm:ml-auto max-sm:p-0">
        <RecordStatusBadge status={record.status} />
      </td>
    </tr>
  );
}
