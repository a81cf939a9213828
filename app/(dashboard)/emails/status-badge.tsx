import { Badge } from '../../components/badge';
import { STATUS_STYLE } from './statuses';
import type { EmailStatus } from './types';

export function EmailStatusBadge({ status }: { status: EmailStatus }) {
  const { label, tone } = STATUS_STYLE[status];
  return (
    <Badge tone={tone}>
      <span data-testid="email-status" data-status={status}>
        {label}
      </span>
    </Badge>
  );
}
