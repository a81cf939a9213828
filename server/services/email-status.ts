import type { EmailStatus } from './emails';

export interface RecipientState {
  address: string;
  /** pending | deferred | delivered | bounced | complained | suppressed | failed */
  status: string;
  attempts: number;
  response?: string;
}

const OPEN = new Set(['pending', 'deferred']);

/**
 * An email's status from its recipients': a complaint marks it, then whatever the recipients
 * still waiting say (sending), then the best final outcome: delivered if anyone got it, else
 * bounced, else failed; suppressed when nobody was ever sent to.
 */
export function aggregateEmailStatus(states: RecipientState[], sent: boolean): EmailStatus {
  const statuses = states.map((state) => state.status);
  if (statuses.includes('complained')) return 'complained';
  if (statuses.some((status) => OPEN.has(status))) return sent ? 'sent' : 'sending';
  if (statuses.includes('delivered')) return 'delivered';
  if (statuses.includes('bounced')) return 'bounced';
  if (statuses.includes('failed')) return 'failed';
  return 'suppressed';
}
