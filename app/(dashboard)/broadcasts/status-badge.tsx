import { Badge } from '../../components/badge';
import { STATUS_STYLE } from './statuses';
import type { BroadcastStatus } from './types';

export function BroadcastStatusBadge({ status }: { status: BroadcastStatus }) {
  const { label, tone } = STATUS_STYLE[status];
  return (
    <Badge tone={tone}>
      <span data-testid="broadcast-status" data-status={status}>
        {label}
      </span>
    </Badge>
  );
}
