import { Badge } from '../../components/badge';

/** A contact asked to confirm (double opt-in) that has not clicked its link yet: it gets nothing meanwhile. */
export function PendingBadge() {
  return (
    <span data-testid="contact-pending">
      <Badge tone="amber">Pending confirmation</Badge>
    </span>
  );
}
