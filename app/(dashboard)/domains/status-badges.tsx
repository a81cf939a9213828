import { Badge } from '../../components/badge';
import type { DomainStatus, RecordStatus } from './types';

type Tone = Parameters<typeof Badge>[0]['tone'];

const DOMAIN_STATUS: Record<DomainStatus, { label: string; tone: Tone }> = {
  not_started: { label: 'Not started', tone: 'neutral' },
  pending: { label: 'Pending', tone: 'blue' },
  verified: { label: 'Verified', tone: 'green' },
  partially_verified: { label: 'Partially verified', tone: 'amber' },
  failed: { label: 'Failed', tone: 'red' },
  temporary_failure: { label: 'Temporary failure', tone: 'amber' },
};

const RECORD_STATUS: Record<RecordStatus, { label: string; tone: Tone }> = {
  pending: { label: 'Pending', tone: 'blue' },
  verified: { label: 'Verified', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  temporary_failure: { label: 'DNS did not answer', tone: 'amber' },
};

export function DomainStatusBadge({ status }: { status: DomainStatus }) {
  const { label, tone } = DOMAIN_STATUS[status];
  return (
    <Badge tone={tone}>
      <span data-testid="domain-status" data-status={status}>
        {label}
      </span>
    </Badge>
  );
}

export function RecordStatusBadge({ status }: { status: RecordStatus }) {
  const { label, tone } = RECORD_STATUS[status];
  return (
    <Badge tone={tone}>
      <span data-testid="record-status" data-status={status}>
        {label}
      </span>
    </Badge>
  );
}
