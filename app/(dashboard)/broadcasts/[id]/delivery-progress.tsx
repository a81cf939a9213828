import { countOf, formatCount } from '../../../lib/format';
import { ProgressBar } from '../progress-bar';
import type { Broadcast } from '../types';
import { CountBar } from './count-bar';

/** Contacts left out on the way, by reason; only the reasons that happened. */
function LeftOut({ counts }: { counts: Broadcast['counts'] }) {
  const reasons = [
    counts.suppressed > 0 && `${formatCount(counts.suppressed)} on your suppression list`,
    counts.skipped > 0 && `${formatCount(counts.skipped)} unsubscribed or removed meanwhile`,
    counts.canceled > 0 && `${formatCount(counts.canceled)} withdrawn by the cancel`,
  ].filter(Boolean);
  if (reasons.length === 0) return null;
  return (
    <p className="mt-2 text-xs text-slate-500" data-testid="left-out">
      Not sent: {reasons.join(', ')}.
    </p>
  );
}

/**
 * How far the broadcast has come: the fan-out (messages handed to delivery of the contacts it
 * started with), then what delivery made of them, then what the contacts did.
 */
export function DeliveryProgress({ broadcast }: { broadcast: Broadcast }) {
  const { counts } = broadcast;
  const handled = counts.queued + counts.suppressed + counts.skipped;
  return (
    <section aria-labelledby="progress-heading" className="space-y-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="delivery-progress">
      <div>
        <div className="flex items-baseline justify-between gap-4">
          <h2 id="progress-heading" className="text-base font-semibold text-slate-900">
            Handed to delivery
          </h2>
          <p className="text-sm text-slate-600 tabular-nums" data-testid="queued-of-recipients">
            <span className="font-semibold text-slate-900">{formatCount(counts.queued)}</span> of {countOf(counts.recipients, 'recipient')}
          </p>
        </div>
        <div className="mt-3">
          <ProgressBar label="Progress through the audience" value={handled} total={counts.recipients} testId="fan-out-progress" />
        </div>
        {counts.recipients === 0 && <p className="mt-2 text-xs text-slate-500">The audience had no subscribed contact when sending started.</p>}
        <LeftOut counts={counts} />
      </div>

      <div>
        <h3 className="text-sm font-semibold text-slate-900">Delivery</h3>
        <p className="text-xs text-slate-500">Of the {countOf(counts.queued, 'message')} handed to delivery.</p>
        <dl className="mt-3 space-y-2.5">
          <CountBar label="Sent" value={counts.sent} total={counts.queued} tone="sky" testId="count-sent" hint="Accepted by the recipient's mail server" />
          <CountBar label="Delivered" value={counts.delivered} total={counts.queued} tone="emerald" testId="count-delivered" />
          <CountBar label="Bounced" value={counts.bounced} total={counts.queued} tone="orange" testId="count-bounced" />
          <CountBar label="Complained" value={counts.complained} total={counts.queued} tone="fuchsia" testId="count-complained" hint="Marked as spam by the recipient" />
        </dl>
      </div>

      <div>
        <h3 className="text-sm font-semibold text-slate-900">Engagement</h3>
        <p className="text-xs text-slate-500">Of the {countOf(counts.delivered, 'message')} delivered, each counted once; opens are counted only where tracking is on. Grey: opened or clicked only by machines (privacy proxies, link scanners).</p>
        <dl className="mt-3 space-y-2.5">
          <CountBar label="Opened" value={counts.opened} machine={counts.openedMachine} total={counts.delivered} tone="indigo" testId="count-opened" />
          <CountBar label="Clicked" value={counts.clicked} machine={counts.clickedMachine} total={counts.delivered} tone="violet" testId="count-clicked" />
          <CountBar label="Unsubscribed" value={counts.unsubscribed} total={counts.delivered} tone="orange" testId="count-unsubscribed" />
        </dl>
      </div>
    </section>
  );
}
