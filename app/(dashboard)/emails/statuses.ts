import type { BadgeTone } from '../../components/badge';
import type { EmailStatus } from './types';

/** Every status, in the order an email usually moves through them (the filter's order). */
export const EMAIL_STATUSES: EmailStatus[] = ['queued', 'scheduled', 'sending', 'sent', 'delivered', 'canceled', 'bounced', 'complained', 'suppressed', 'failed'];

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

export const isEmailStatus = (value: string | null | undefined): value is EmailStatus => EMAIL_STATUSES.includes(value as EmailStatus);
