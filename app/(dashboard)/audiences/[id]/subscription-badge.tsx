import { Badge } from '../../../components/badge';

export function SubscriptionBadge({ subscribed }: { subscribed: boolean }) {
  return (
    <span data-testid="contact-subscription" data-subscribed={subscribed}>
      <Badge tone={subscribed ? 'green' : 'muted'}>{subscribed ? 'Subscribed' : 'Unsubscribed'}</Badge>
    </span>
  );
}
