import { formatCount, formatDateTime } from '../../lib/format';
import { SectionCard } from './section-card';
import type { Usage } from './types';
import { UsageMeter } from './usage-meter';

/** This month's emails against the quota, and with overage on, against where sending stops. */
export function MonthCard({ usage }: { usage: Usage }) {
  const { month, overage } = usage;
  const overageOn = overage.available && overage.enabled;
  // With overage on the bar runs to the stop, the quota marked inside it.
  const limit = overageOn ? overage.stopsAt : month.quota;
  return (
    <SectionCard id="month" title="This month" testId="month-usage">
      <p className="text-sm text-slate-600">
        <span className="text-2xl font-semibold text-slate-900 tabular-nums" data-testid="month-emails">
          {formatCount(month.emails)}
        </span>{' '}
        of <span data-testid="month-quota">{formatCount(month.quota)}</span> emails
      </p>
      <div className="mt-3">
        <UsageMeter
          label="Emails this month"
          used={month.emails}
          limit={limit}
          unit="emails"
          mark={overageOn ? { at: month.quota, label: `Quota: ${formatCount(month.quota)}` } : undefined}
          testId="month-meter"
        />
      </div>
      <dl className="mt-3 space-y-1 text-sm">
        <div className="flex justify-between gap-3">
          <dt className="text-slate-500">Left before sending stops</dt>
          <dd className="font-medium text-slate-900 tabular-nums" data-testid="month-remaining">
            {formatCount(month.remaining)}
          </dd>
        </div>
        {overageOn && (
          <div className="flex justify-between gap-3">
            <dt className="text-slate-500">Stops at (with overage)</dt>
            <dd className="font-medium text-slate-900 tabular-nums">{formatCount(overage.stopsAt)}</dd>
          </div>
        )}
        <div className="flex justify-between gap-3">
          <dt className="text-slate-500">Quota resets</dt>
          <dd className="text-slate-900">
            <time dateTime={month.resetsAt}>{formatDateTime(month.resetsAt)}</time>
          </dd>
        </div>
      </dl>
      <p className="mt-auto pt-3 text-xs text-slate-500">Live recipients accepted: an email to three recipients counts three. Test-mode email is not counted.</p>
    </SectionCard>
  );
}
