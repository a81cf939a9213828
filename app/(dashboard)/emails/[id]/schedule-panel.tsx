import { RelativeTime } from '../../../components/relative-time';
import { formatDateTime } from '../../../lib/format';
import type { Email } from '../types';
import { CancelEmailButton } from './cancel-email-button';
import { RescheduleForm } from './reschedule-form';

/** For a scheduled email: when it goes out, and the ways to move or cancel it. */
export function SchedulePanel({ email }: { email: Email }) {
  if (email.status !== 'scheduled' || !email.scheduledAt) return null;
  return (
    <section aria-labelledby="schedule-heading" className="rounded-xl border border-violet-200 bg-violet-50/50 p-5 shadow-sm" data-testid="schedule-panel">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 id="schedule-heading" className="text-base font-semibold text-slate-900">
            Scheduled
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Goes out on <strong className="font-medium text-slate-800">{formatDateTime(email.scheduledAt)}</strong> (
            <RelativeTime iso={email.scheduledAt} future />
            ). Until then you can move it or cancel it.
          </p>
        </div>
        <CancelEmailButton email={email} />
      </div>
      <div className="mt-4">
        <RescheduleForm email={email} />
      </div>
    </section>
  );
}
