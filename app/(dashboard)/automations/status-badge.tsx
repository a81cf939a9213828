import { Badge, type BadgeTone } from '../../components/badge';
import type { AutomationSummary, RunStatus } from './types';

export function AutomationStatusBadge({ status }: { status: AutomationSummary['status'] }) {
  return (
    <span data-testid="automation-status" data-status={status}>
      <Badge tone={status === 'enabled' ? 'green' : 'muted'}>{status === 'enabled' ? 'Enabled' : 'Disabled'}</Badge>
    </span>
  );
}

const RUN_TONES: Record<RunStatus, BadgeTone> = { running: 'blue', completed: 'green', failed: 'red', cancelled: 'muted' };
const RUN_LABELS: Record<RunStatus, string> = { running: 'Running', completed: 'Completed', failed: 'Failed', cancelled: 'Cancelled' };

export function RunStatusBadge({ status }: { status: RunStatus }) {
  return (
    <span data-testid="run-status" data-status={status}>
      <Badge tone={RUN_TONES[status]}>{RUN_LABELS[status]}</Badge>
    </span>
  );
}

export const RUN_STATUS_LABELS = RUN_LABELS;
