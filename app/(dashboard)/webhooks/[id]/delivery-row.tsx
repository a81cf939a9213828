import { ChevronDownIcon, ChevronRightIcon } from 'lucide-react';
import { RelativeTime } from '../../../components/relative-time';
import type { Delivery } from '../types';
import { DeliveryStatusBadge } from './delivery-status-badge';

/** One delivery; its event type is the button that unfolds it (the whole row answers a click too). */
export function DeliveryRow({ delivery, expanded, panelId, onToggle }: { delivery: Delivery; expanded: boolean; panelId: string; onToggle: () => void }) {
  const Chevron = expanded ? ChevronDownIcon : ChevronRightIcon;
  return (
    <tr
      data-testid="delivery-row"
      data-delivery-id={delivery.id}
      className={expanded ? 'cursor-pointer bg-indigo-50/40' : 'cursor-pointer hover:bg-slate-50/60'}
      onClick={onToggle}
    >
      <td className="py-3 pr-4 pl-5">
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={expanded ? panelId : undefined}
          // The row's own click handler toggles; the button is there for keyboards and screen readers.
          onClick={(event) => {
            event.stopPropagation();
            onToggle();
          }}
          className="inline-flex items-center gap-1.5 rounded font-mono text-[13px] font-medium text-slate-900 hover:text-indigo-600"
        >
          <Chevron className="size-4 shrink-0 text-slate-400" />
          {delivery.eventType}
        </button>
      </td>
      <td className="px-4 py-3">
        <DeliveryStatusBadge status={delivery.status} />
      </td>
      <td className="px-4 py-3 text-slate-700 tabular-nums">{delivery.attempts}</td>
      <td className="px-4 py-3 whitespace-nowrap" title={delivery.lastError ?? undefined} data-testid="delivery-response">
        {delivery.responseStatus !== null ? (
          <code className="font-mono text-xs text-slate-700">{delivery.responseStatus}</code>
        ) : (
          <span className="text-slate-400">{delivery.attempts > 0 ? 'No answer' : '—'}</span>
        )}
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <RelativeTime iso={delivery.createdAt} />
      </td>
      <td className="py-3 pr-5 pl-4 whitespace-nowrap text-slate-500">
        {delivery.status === 'pending' && delivery.nextAttemptAt ? <RelativeTime iso={delivery.nextAttemptAt} future /> : <span className="text-slate-400">—</span>}
      </td>
    </tr>
  );
}
