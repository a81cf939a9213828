import type { Deps } from '../../../deps';
import { IN_FLIGHT } from '../aggregate-status';
import type { ClaimedEmail } from './types';

/**
 * Emails in flight to one recipient domain at once, per process. A receiving server that is slow
 * (a tarpit, a greylister holding the connection, a dead host we wait out) can then hold this many
 * of the process's dispatch slots and no more: the others go on delivering to everyone else, and
 * the claim leaves that domain's emails in the database until a slot frees. A little above the
 * sessions we open per MX address (mx-sessions.ts), so a fast domain always has a message ready.
 */
export const PER_DESTINATION = 8;

/** Where an email still has to go: the recipient domains (lowercase) of its open recipients. */
export function destinationsOf(row: Pick<ClaimedEmail, 'recipientStates'>): string[] {
  const domains = new Set<string>();
  for (const state of row.recipientStates) {
    if (IN_FLIGHT.has(state.status)) domains.add(state.address.slice(state.address.lastIndexOf('@') + 1).toLowerCase());
  }
  return [...domains];
}

/** Counts the emails in flight per destination. */
export class DestinationGate {
  private readonly inFlight = new Map<string, number>();

  /** Destinations at their limit: what the next claim leaves alone. */
  busy(): string[] {
    return [...this.inFlight].filter(([, count]) => count >= PER_DESTINATION).map(([domain]) => domain);
  }

  /** Takes a place at each of these destinations, or none when one of them is full. */
  enter(destinations: string[]): boolean {
    if (destinations.some((domain) => (this.inFlight.get(domain) ?? 0) >= PER_DESTINATION)) return false;
    for (const domain of destinations) this.inFlight.set(domain, (this.inFlight.get(domain) ?? 0) + 1);
    return true;
  }

  leave(destinations: string[]): void {
    for (const domain of destinations) {
      const count = (this.inFlight.get(domain) ?? 1) - 1;
      if (count > 0) this.inFlight.set(domain, count);
      else this.inFlight.delete(domain);
    }
  }
}

/**
 * Whether an email's destinations are gated: live mail straight to the recipients' MX. Through a
 * smarthost every email goes to the same place, and test-mode emails go nowhere.
 */
export const gatedDestinations = (deps: Pick<Deps, 'config'>, row: Pick<ClaimedEmail, 'mode' | 'recipientStates'>): string[] =>
  row.mode === 'live' && !deps.config.smtpRelayUrl ? destinationsOf(row) : [];
