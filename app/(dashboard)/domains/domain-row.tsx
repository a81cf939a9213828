import Link from 'next/link';
import { ChevronRightIcon } from 'lucide-react';
import { formatDate, formatDateTime } from '../../lib/format';
import { CheckSummary } from './check-summary';
import { DomainStatusBadge } from './status-badges';
import type { DomainSummary } from './types';

export function DomainRow({ domain }: { domain: DomainSummary }) {
  const href = `/domains/${domain.id}`;
  return (
    <tr data-testid="domain-row" data-domain-id={domain.id} className="hover:bg-slate-50/60">
      <td className="py-3 pr-4 pl-5 font-medium break-all text-slate-900">
        <Link href={href} className="hover:text-indigo-600 hover:underline">
          {domain.name}
        </Link>
      </td>
      <td className="px-4 py-3">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <DomainStatusBadge status={domain.status} />
          <CheckSummary domain={domain} />
        </div>
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <time dateTime={domain.createdAt} title={formatDateTime(domain.createdAt)}>
          {formatDate(domain.createdAt)}
        </time>
      </td>
      <td className="py-3 pr-5 pl-4 text-right">
        <Link href={href} aria-label={`Open ${domain.name}`} className="inline-flex rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600">
          <ChevronRightIcon className="size-5" />
        </Link>
      </td>
    </tr>
  );
}
