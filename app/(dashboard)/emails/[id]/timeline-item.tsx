import { cx } from '../../../components/cx';
import { formatPreciseDateTime } from '../../../lib/format';
import type { EmailEvent } from '../types';
import { BounceNote } from './bounce-note';
import { EventDetails } from './event-details';
import { eventKind } from './event-kinds';

/** One event: its icon on the line, what happened, to whom, when, and the details. */
export function TimelineItem({ event, last }: { event: EmailEvent; last: boolean }) {
  const { label, icon: Icon, tone } = eventKind(event.type);
  return (
    <li className="relative flex gap-3 pb-6 last:pb-0" data-testid="timeline-event" data-type={event.type}>
      {!last && <span className="absolute top-9 bottom-1 left-4 w-px -translate-x-1/2 bg-slate-200" aria-hidden="true" />}
      <span className={cx('flex size-8 shrink-0 items-center justify-center rounded-full ring-4 ring-white', tone)}>
        <Icon className="size-4" />
      </span>
      <div className="min-w-0 flex-1 pt-1">
        <p className="text-sm font-medium text-slate-900" data-testid="event-label">
          {label}
        </p>
        {event.recipient && (
          <p className="text-xs break-all text-slate-600" data-testid="event-recipient">
            {event.recipient}
          </p>
        )}
        <time dateTime={event.createdAt} className="block text-xs text-slate-500">
          {formatPreciseDateTime(event.createdAt)}
        </time>
        <BounceNote bounce={event.data.bounce} />
        <EventDetails data={event.data} />
      </div>
    </li>
  );
}
