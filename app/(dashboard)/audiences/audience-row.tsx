import Link from 'next/link';
import { ChevronRightIcon } from 'lucide-react';
import { Badge } from '../../components/badge';
import { RowAction, RowActions } from '../../components/row-actions';
import { formatCount, formatDate, formatDateTime } from '../../lib/format';
import type { Segment } from './types';

/** An audience: its name (and whether rules choose its contacts), its members, and for a rule segment how many its rules match now. */
export function AudienceRow({ audience, onDelete }: { audience: Segment; onDelete: () => void }) {
  const href = `/audiences/${audience.id}`;
  return (
    <tr data-testid="audience-row" data-audience-id={audience.id} data-rules={audience.rules ? 'true' : 'false'} className="hover:bg-slate-50/60">
      <td className="max-w-96 py-3 pr-4 pl-5 font-medium text-slate-900">
        <Link href={href} className="line-clamp-2 wrap-anywhere hover:text-indigo-600 hover:underline">
          {audience.name}
        </Link>
        {audience.rules && (
          <span className="mt-1 block" data-testid="audience-rule-based">
            <Badge tone="violet">Defined by rules</Badge>
          </span>
        )}
      </td>
      <td className="px-4 py-3 text-slate-700 tabular-nums">
        <span data-testid="audience-contact-count">{formatCount(audience.contactCount)}</span>
        {audience.matchingNow !== null && (
          <span className="block text-xs text-slate-500" data-testid="audience-matching-now" data-count={audience.matchingNow}>
            {audience.matchingNow === 0 ? 'none' : formatCount(audience.matchingNow)} match now
          </span>
        )}
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
