import { Badge } from '../../../components/badge';
import { DELIVERY_STATUS_STYLE, type DeliveryStatus } from './delivery-statuses';

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  const { label, tone } = DELIVERY_STATUS_STYLE[status];
  return (
    <Badge tone={tone}>
      <span data-testid="delivery-status" data-status={status}>
        {label}
      </span>
    </Badge>
  );
}
