import { formatCount, formatDateTime } from '../../lib/format';
import { SectionCard } from './section-card';
import type { Usage } from './types';
import { UsageMeter } from './usage-meter';

function Row({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex justify-between gap-3">
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-medium text-slate-900 tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

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
        {overageOn ? (
          <>
            <Row label="Left in the quota" value={formatCount(Math.max(0, month.quota - month.emails))} />
            <Row label="Sending stops at" value={`${formatCount(overage.stopsAt)} with overage`} />
          </>
        ) : (
          <Row label="Left this month" value={formatCount(month.remaining)} testId="month-remaining" />
        )}
      </dl>
      <p className="mt-3 text-sm text-slate-600">
        The quota resets on <time dateTime={month.resetsAt}>{formatDateTime(month.resetsAt)}</time>.
      </p>
      <p className="mt-auto pt-3 text-xs text-slate-500">Live recipients accepted: an email to three recipients counts three. Test-mode email is not counted.</p>
    </SectionCard>
  );
}
