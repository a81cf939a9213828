import type { HistoryEntry } from '../emails/history';

/** A server that took (or refused) the message for some of its recipients. */
export interface ReceivingParty {
  host: string;
  recipients: string[];
  /** The last event that names it. */
  lastSeenAt: string;
}

/**
 * The receiving servers a message was handed to, as its delivery events recorded them (`data.host`),
 * one entry per host. A relay's host is the relay itself, not a recipient's server: left out here.
 */
export function receivingPartiesOf(history: HistoryEntry[], relayHostname: string | null): ReceivingParty[] {
  const byHost = new Map<string, { recipients: Set<string>; lastSeenAt: Date }>();
  for (const event of history) {
    const host = event.data.host;
    if (typeof host !== 'string' || !host || host === relayHostname) continue;
    const party = byHost.get(host) ?? { recipients: new Set<string>(), lastSeenAt: event.createdAt };
    if (event.recipient) party.recipients.add(event.recipient);
    if (event.createdAt > party.lastSeenAt) party.lastSeenAt = event.createdAt;
    byHost.set(host, party);
  }
  return [...byHost].map(([host, party]) => ({ host, recipients: [...party.recipients].sort(), lastSeenAt: party.lastSeenAt.toISOString() }));
}
