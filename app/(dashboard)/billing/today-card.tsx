import { Alert } from '../../components/alert';
import { formatCount, formatDateTime } from '../../lib/format';
import { SectionCard } from './section-card';
import type { Usage } from './types';
import { UsageMeter } from './usage-meter';

const TIER_NAMES: Record<Usage['today']['tier'], string> = {
  free: 'Free plan',
  pool: 'New-account pool',
  'after-pool': 'Ramping up',
  'usage-based': 'Usage-based',
};

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
      <dl className="mt-3 space-y-1 text-sm">
        <div className="flex justify-between gap-3">
          <dt className="text-slate-500">Ceiling</dt>
          <dd className="text-right font-medium text-slate-900">{TIER_NAMES[today.tier]}</dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt className="text-slate-500">Resets</dt>
          <dd className="text-slate-900">
            <time dateTime={today.resetsAt}>{formatDateTime(today.resetsAt)}</time>
          </dd>
        </div>
        {today.changesAt && (
          <div className="flex justify-between gap-3" data-testid="ceiling-changes-at">
            <dt className="text-slate-500">Ceiling changes</dt>
            <dd className="text-slate-900">
              <time dateTime={today.changesAt}>{formatDateTime(today.changesAt)}</time>
            </dd>
          </div>
        )}
      </dl>
      <p className="mt-3 text-sm text-slate-600" data-testid="ceiling-reason">
        {today.reason}.
      </p>
      {today.halved && (
        <Alert tone="warning" title="Ceiling halved" className="mt-3">
          Your recent bounce or complaint rate is high, so today&apos;s ceiling is half its usual size until the rate recovers. Remove invalid addresses and
          unwanted mail from your lists.
        </Alert>
      )}
    </SectionCard>
  );
}
