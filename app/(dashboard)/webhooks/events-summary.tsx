import { Badge } from '../../components/badge';
import { ALL_EVENTS } from './event-groups';

/** The events an endpoint gets: "All events", or the types, the first `limit` of them named and the rest counted. */
export function EventsSummary({ events, limit = 2 }: { events: string[]; limit?: number }) {
  if (events.includes(ALL_EVENTS)) {
    return (
      <span data-testid="webhook-events" data-all="true">
        <Badge tone="accent">All events</Badge>
      </span>
    );
  }
  const shown = events.slice(0, limit);
  const rest = events.length - shown.length;
  return (
    <span className="flex flex-wrap items-center gap-1.5" data-testid="webhook-events" title={rest > 0 ? events.join(', ') : undefined}>
      {shown.map((type) => (
        <code key={type} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
          {type}
        </code>
      ))}
      {rest > 0 && <span className="text-xs whitespace-nowrap text-slate-500">+{rest} more</span>}
    </span>
  );
}
