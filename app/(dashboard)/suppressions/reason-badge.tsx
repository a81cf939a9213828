import { Badge } from '../../components/badge';
import { SUPPRESSION_REASON_STYLE, type SuppressionReason } from './reasons';

export function ReasonBadge({ reason }: { reason: SuppressionReason }) {
  const { label, tone, description } = SUPPRESSION_REASON_STYLE[reason];
  return (
    <Badge tone={tone}>
      <span data-testid="suppression-reason" data-reason={reason} title={description}>
        {label}
      </span>
    </Badge>
  );
}
