import { Badge } from '../../components/badge';

/** A contact unsubscribed from everything: no broadcast reaches them, whatever each segment says. */
export function UnsubscribedBadge() {
  return (
    <span data-testid="contact-unsubscribed">
      <Badge tone="amber">Unsubscribed from everything</Badge>
    </span>
  );
}
