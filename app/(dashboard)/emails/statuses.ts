import type { BadgeTone } from '../../components/badge';
import { EMAIL_STATUSES, isEmailStatus, type EmailStatus } from '@/server/vocabulary/email-statuses';

export { EMAIL_STATUSES, isEmailStatus };

export const STATUS_STYLE: Record<EmailStatus, { label: string; tone: BadgeTone }> = {
  queued: { label: 'Queued', tone: 'neutral' },
  scheduled: { label: 'Scheduled', tone: 'violet' },
  sending: { label: 'Sending', tone: 'accent' },
  sent: { label: 'Sent', tone: 'blue' },
  delivered: { label: 'Delivered', tone: 'green' },
  canceled: { label: 'Canceled', tone: 'muted' },
  bounced: { label: 'Bounced', tone: 'orange' },
  complained: { label: 'Complained', tone: 'fuchsia' },
  suppressed: { label: 'Suppressed', tone: 'amber' },
  failed: { label: 'Failed', tone: 'red' },
};

/** Statuses that still change by themselves: a screen showing one refetches until it settles. */
const IN_FLIGHT = new Set<EmailStatus>(['queued', 'scheduled', 'sending', 'sent']);
export const isInFlight = (status: EmailStatus) => IN_FLIGHT.has(status);

