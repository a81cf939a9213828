import { DEFAULT_SUBSCRIPTIONS } from './default-subscription';
import { DefaultSubscriptionBadge } from './default-subscription-badge';

/** Under the table: what each default subscription means for a contact who never chose. */
export function TopicsLegend() {
  return (
    <dl className="space-y-1.5 text-sm text-slate-600" data-testid="topics-legend">
      {(['opt_in', 'opt_out'] as const).map((value) => (
        <div key={value} className="flex items-baseline gap-2">
          <dt className="w-16 shrink-0">
            <DefaultSubscriptionBadge value={value} />
          </dt>
          <dd>{DEFAULT_SUBSCRIPTIONS[value].meaning}</dd>
        </div>
      ))}
    </dl>
  );
}
