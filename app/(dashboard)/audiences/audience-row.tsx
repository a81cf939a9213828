import Link from 'next/link';
import { ChevronRightIcon } from 'lucide-react';
import { RowAction, RowActions } from '../../components/row-actions';
import { formatCount, formatDate, formatDateTime } from '../../lib/format';
import type { Audience } from './types';

export function AudienceRow({ audience, onDelete }: { audience: Audience; onDelete: () => void }) {
  const href = `/audiences/${audience.id}`;
  return (
    <tr data-testid="audience-row" data-audience-id={audience.id} className="hover:bg-slate-50/60">
      <td className="max-w-96 py-3 pr-4 pl-5 font-medium text-slate-900">
        <Link href={href} className="line-clamp-2 wrap-anywhere hover:text-indigo-600 hover:underline">
          {audience.name}
        </Link>
      </td>
      <td className="px-4 py-3 text-slate-700 tabular-nums" data-testid="audience-contact-count">
        {formatCount(audience.contactCount)}
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <time dateTime={audience.createdAt} title={formatDateTime(audience.createdAt)}>
          {formatDate(audience.createdAt)}
        </time>
      </td>
      <RowActions>
        <RowAction procedure="audiences.delete" kind="delete" label={`Delete ${audience.name}`} title="Delete audience" onClick={onDelete} />
        <Link href={href} aria-label={`Open ${audience.name}`} className="inline-flex rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600">
          <ChevronRightIcon className="size-5" />
        </Link>
      </RowActions>
    </tr>
  );
}
