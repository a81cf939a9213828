import { Badge } from '../../components/badge';
import { RelativeTime } from '../../components/relative-time';
import { formatDateTime } from '../../lib/format';
import type { AuditEvent } from './types';
import { detailWords } from './detail-words';
import { ACTION_WORDS, actorWords } from './wording';

export function AuditRow({ event }: { event: AuditEvent }) {
  const actor = actorWords(event.actor);
  const detail = detailWords(event);
  return (
    <tr data-testid="audit-row" data-action={event.action} className="align-top hover:bg-slate-50/60">
      <td className="py-3 pr-4 pl-5 whitespace-nowrap text-slate-500">
        <RelativeTime iso={event.occurredAt} />
        <div className="text-xs text-slate-400">{formatDateTime(event.occurredAt)}</div>
      </td>
      <td className="max-w-44 px-4 py-3">
        <span className="block truncate text-slate-900" title={actor.primary}>
          {actor.primary}
        </span>
        <span className="text-xs text-slate-500">{actor.secondary}</span>
      </td>
      <td className="min-w-40 px-4 py-3">
        <span className="font-medium text-slate-900">{ACTION_WORDS[event.action]}</span>
        {event.action === 'user.sign_in_failed' && (
          <Badge tone="amber" className="ml-2">
            Refused
          </Badge>
        )}
        {detail && <div className="mt-0.5 text-xs text-slate-500">{detail}</div>}
      </td>
      <td className="max-w-44 px-4 py-3 text-slate-700">
        <span className="block truncate" title={event.target.label ?? event.target.id}>
          {event.target.label ?? event.target.id}
        </span>
      </td>
      <td className="py-3 pr-5 pl-4 whitespace-nowrap">
        {event.clientAddress ? (
          <span className="font-mono text-xs text-slate-700" title={event.userAgent ?? undefined}>
            {event.clientAddress}
          </span>
        ) : (
          <span className="text-xs text-slate-400">—</span>
        )}
      </td>
    </tr>
  );
}
