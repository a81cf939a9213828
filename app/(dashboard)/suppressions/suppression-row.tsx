import Link from 'next/link';
import { RelativeTime } from '../../components/relative-time';
import { RowAction, RowActions } from '../../components/row-actions';
import { ReasonBadge } from './reason-badge';
import type { Suppression } from './types';

export function SuppressionRow({ suppression, onRemove }: { suppression: Suppression; onRemove: () => void }) {
  return (
    <tr data-testid="suppression-row" data-suppression-id={suppression.id} data-email={suppression.email} className="hover:bg-slate-50/60">
      <td className="max-w-96 py-3 pr-4 pl-5 font-medium break-all text-slate-900" data-testid="suppression-email">
        {suppression.email}
      </td>
      <td className="px-4 py-3">
        <ReasonBadge reason={suppression.reason} />
      </td>
      <td className="px-4 py-3 whitespace-nowrap" data-testid="suppression-email-link">
        {suppression.emailId ? (
          <Link href={`/emails/${suppression.emailId}`} className="text-indigo-600 hover:text-indigo-500 hover:underline">
            View email
          </Link>
        ) : (
          <span className="text-slate-400">—</span>
        )}
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <RelativeTime iso={suppression.createdAt} />
      </td>
      <RowActions>
        <RowAction procedure="suppressions.delete" kind="delete" label={`Remove ${suppression.email}`} title="Remove from the list" onClick={onRemove} />
      </RowActions>
    </tr>
  );
}
