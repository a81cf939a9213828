import { RECIPIENT_STATUSES, type EmailStatus, type RecipientStatus } from './statuses';

export interface RecipientState {
  address: string;
  status: RecipientStatus;
  attempts: number;
  response?: string;
}

/** Recipient states the pipeline still works on. */
export const IN_FLIGHT: ReadonlySet<string> = new Set<RecipientStatus>(['pending', 'deferred']);
const KNOWN: ReadonlySet<string> = new Set<RecipientStatus>(RECIPIENT_STATUSES);

/**
 * The email's status from its recipients' states (envelope order, as in `recipientStates`):
 *
 *   1. any recipient complained → `complained` (whatever the others are doing);
 *   2. any recipient still pending or deferred → null: no outcome yet, the pipeline's own status
 *      (queued, sending, sent) stands;
 *   3. anyone got it → `delivered`; else anyone bounced → `bounced`; else anyone failed → `failed`;
 *   4. nobody was ever sent to (all suppressed) → `suppressed`.
 *
 * So a one-recipient email delivered and then bounced by a DSN is `bounced`; with several
 * recipients the email is `delivered` if any of them got it, and each bounce is in its history and
 * on the suppression list. A state this function does not know counts as in flight, so nothing is
 * finalised on it. An email without recipients has no status to derive (null).
 */
export function aggregateEmailStatus(states: ReadonlyArray<{ status: string }>): EmailStatus | null {
  const statuses = states.map((state) => state.status);
  if (statuses.includes('complained')) return 'complained';
  if (statuses.length === 0 || statuses.some((status) => IN_FLIGHT.has(status) || !KNOWN.has(status))) return null;
  if (statuses.includes('delivered')) return 'delivered';
  if (statuses.includes('bounced')) return 'bounced';
  if (statuses.includes('failed')) return 'failed';
  return 'suppressed';
}
