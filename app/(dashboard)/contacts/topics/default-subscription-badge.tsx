import { Badge } from '../../../components/badge';
import type { DefaultSubscription } from '../types';
import { DEFAULT_SUBSCRIPTIONS } from './default-subscription';

export function DefaultSubscriptionBadge({ value }: { value: DefaultSubscription }) {
  return (
    <span data-testid="topic-default" data-default={value} title={DEFAULT_SUBSCRIPTIONS[value].meaning}>
      <Badge tone={value === 'opt_in' ? 'blue' : 'violet'}>{DEFAULT_SUBSCRIPTIONS[value].label}</Badge>
    </span>
  );
}
