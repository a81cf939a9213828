import type { Deps } from '../../../deps';
import { IN_FLIGHT } from '../aggregate-status';
import type { ClaimedEmail } from './types';

/**
 * Emails in flight to one recipient domain at once, per process. A receiving server that is slow
 * (a tarpit, a greylister holding the connection, a dead host we wait out) can then hold this many
 * of the process's dispatch slots and no more: the others go on delivering to everyone else, and
 * the claim leaves that domain's emails in the database until a place frees (dispatcher.ts). A
 * little above the sessions we open per MX address (mx-sessions.ts), so a fast domain always has a
 * message ready.
 */
export const PER_DESTINATION = 8;

/** Where an email still has to go: the providers of its open recipients, which the claim compares with the busy destinations. */
export function destinationsOf(row: Pick<ClaimedEmail, 'recipients'>): string[] {
  const providers = new Set<string>();
  for (const recipient of row.recipients) {
    if (IN_FLIGHT.has(recipient.status)) providers.add(recipient.provider);
  }
  return [...providers];
}

/**
 * Whether an email's destinations are gated: live mail straight to the recipients' MX. Through a
 * smarthost every email goes to the same place, and test-mode emails go nowhere.
 */
export const gatedDestinations = (deps: Pick<Deps, 'config'>, row: Pick<ClaimedEmail, 'mode' | 'recipients'>): string[] =>
  row.mode === 'live' && !deps.config.smtpRelayUrl ? destinationsOf(row) : [];
