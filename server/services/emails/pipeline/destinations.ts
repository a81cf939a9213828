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

/** The destination an address is delivered to: the part after its last @, lowercase. */
export const recipientDomain = (address: string): string => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** Where an email still has to go: the recipient domains (lowercase) of its open recipients. */
export function destinationsOf(row: Pick<ClaimedEmail, 'recipientStates'>): string[] {
  const domains = new Set<string>();
  for (const state of row.recipientStates) {
    if (IN_FLIGHT.has(state.status)) domains.add(recipientDomain(state.address));
  }
  return [...domains];
}

/**
 * Whether an email's destinations are gated: live mail straight to the recipients' MX. Through a
 * smarthost every email goes to the same place, and test-mode emails go nowhere.
 */
export const gatedDestinations = (deps: Pick<Deps, 'config'>, row: Pick<ClaimedEmail, 'mode' | 'recipientStates'>): string[] =>
  row.mode === 'live' && !deps.config.smtpRelayUrl ? destinationsOf(row) : [];
