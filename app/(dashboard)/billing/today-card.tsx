import { Alert } from '../../components/alert';
import { formatCount, formatDateTime } from '../../lib/format';
import { SectionCard } from './section-card';
import type { Usage } from './types';
import { UsageMeter } from './usage-meter';

/** Today's recipients against the daily ceiling, and why the ceiling is what it is. */
export function TodayCard({ usage }: { usage: Usage }) {
  const { today } = usage;
  return (
    <SectionCard id="today" title="Today (UTC)" testId="today-usage">
      <p className="text-sm text-slate-600">
        <span className="text-2xl font-semibold text-slate-900 tabular-nums" data-testid="today-recipients">
          {formatCount(today.recipients)}
        </span>{' '}
        of <span data-testid="today-ceiling">{formatCount(today.ceiling)}</span> recipients
      </p>
      <div className="mt-3">
        <UsageMeter label="Recipients today" used={today.recipients} limit={today.ceiling} unit="recipients" testId="today-meter" />
      </div>
      <p className="mt-3 text-sm text-slate-600" data-testid="ceiling-reason">
        {today.reason}.
      </p>
      <p className="mt-2 text-sm text-slate-600">
        Today&apos;s count resets on <time dateTime={today.resetsAt}>{formatDateTime(today.resetsAt)}</time>.
      </p>
      {today.changesAt && (
        <p className="mt-2 text-sm text-slate-600" data-testid="ceiling-changes-at">
          The ceiling changes on <time dateTime={today.changesAt}>{formatDateTime(today.changesAt)}</time>.
        </p>
      )}
      {today.halved && (
        <Alert tone="warning" title="Ceiling halved" className="mt-3">
          Your recent bounce or complaint rate is high, so today&apos;s ceiling is half its usual size until the rate recovers. Remove invalid addresses and
          unwanted mail from your lists.
        </Alert>
      )}
    </SectionCard>
  );
}
