import { Spinner } from '../../../components/spinner';
import { isInFlight } from '../statuses';
import type { Email } from '../types';
import { TimelineItem } from './timeline-item';

/** The email's history, oldest first; while it is on its way, a last step says more is coming. */
export function Timeline({ email }: { email: Email }) {
  const waiting = isInFlight(email.status) && email.status !== 'scheduled';
  return (
    <section aria-labelledby="timeline-heading" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="timeline-heading" className="text-base font-semibold text-slate-900">
        Timeline
      </h2>
      {email.events.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">No events yet.</p>
      ) : (
        <ol className="mt-4" aria-label="Events, oldest first" data-testid="timeline">
          {email.events.map((event, index) => (
            <TimelineItem key={`${event.createdAt}-${index}`} event={event} last={index === email.events.length - 1 && !waiting} />
          ))}
          {waiting && (
            <li className="flex items-center gap-3 text-xs text-slate-500" data-testid="timeline-waiting">
              <span className="flex size-8 shrink-0 items-center justify-center">
                <Spinner className="size-4 text-slate-400" />
              </span>
              Waiting for the next event…
            </li>
          )}
        </ol>
      )}
    </section>
  );
}
