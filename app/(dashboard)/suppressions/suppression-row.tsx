import Link from 'next/link';
import { Trash2Icon } from 'lucide-react';
import { RelativeTime } from '../../components/relative-time';
import { ReasonBadge } from './reason-badge';
import type { Suppression } from './types';
import { MayCall } from '../../components/may-call';

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
      <td className="py-3 pr-5 pl-4 text-right">
        <MayCall procedure="suppressions.delete">
          <button
            type="button"
            onClick={onRemove}
            aria-label={`Remove ${suppression.email}`}
            title="Remove from the list"
            className="inline-flex rounded-md p-1 text-slate-400 hover:bg-red-50 hover:text-red-600"
          >
            <Trash2Icon className="size-4" />
          </button>
        </MayCall>
      </td>
    </tr>
  );
}
