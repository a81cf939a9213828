import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { automations, contacts } from '@/db/schema';
import type { Deps } from '../../../deps';
import type { SystemTriggerEvent } from '../../../vocabulary/automations';
import { startRuns, wakeRuns, type TriggerEvent } from '../runs/start';

/** A contact an event is about: its address when the caller has it, else it is read (only when an automation listens). */
export type EventContact = { id: string; email?: string };

/** One event this service raises, as a contact service builds it (contact-events.ts): the organization and mode are the caller's. */
export interface RaisedEvent {
  name: SystemTriggerEvent;
  contacts: EventContact[];
  about?: TriggerEvent['about'];
  payload?: Record<string, unknown>;
}

/**
 * The event names among `names` that an enabled automation of the organization starts on: one
 * lookup by the partial index `automations_enabled_trigger_idx` (organization, trigger event name,
 * enabled and not deleted), which for most organizations finds nothing and ends the work there.
 */
async function listenedTo(tx: Db, organizationId: string, names: string[]): Promise<Set<string>> {
  const rows = await tx
    .selectDistinct({ name: automations.triggerEventName })
    .from(automations)
    .where(and(eq(automations.organizationId, organizationId), inArray(automations.triggerEventName, names), eq(automations.status, 'enabled'), isNull(automations.deletedAt)));
  return new Set(rows.map((row) => row.name));
}

/**
 * Starts the runs these events start, in the caller's transaction (the one that makes them
 * happen: rolled back, it started nothing), and wakes them. The wake goes out before the caller
 * commits, as the event log's webhook wake does: a sweep woken too early finds nothing yet and the
 * runner's next poll (a second) or Inngest's minute sweep takes the runs. Answers how many started.
 */
export async function raiseEvents(tx: Db, deps: Pick<Deps, 'clock' | 'jobs'>, scope: { organizationId: string; test?: boolean }, events: RaisedEvent[]): Promise<number> {
  const wanted = events.filter((event) => event.contacts.length > 0);
  if (wanted.length === 0) return 0;
  const listened = await listenedTo(tx, scope.organizationId, [...new Set(wanted.map((event) => event.name))]);
  const heard = wanted.filter((event) => listened.has(event.name));
  if (heard.length === 0) return 0;
  const addresses = await addressesOf(tx, scope.organizationId, heard.flatMap((event) => event.contacts));
  const started: string[] = [];
  for (const event of heard) {
    const known = event.contacts.flatMap((contact) => {
      const email = contact.email ?? addresses.get(contact.id);
      return email ? [{ id: contact.id, email }] : [];
    });
    started.push(...(await startRuns(tx, deps, { organizationId: scope.organizationId, name: event.name, payload: event.payload ?? {}, test: scope.test ?? false, contacts: known, about: event.about })));
  }
  wakeRuns(deps, started);
  return started.length;
}

/** The addresses of the contacts given without one. */
async function addressesOf(tx: Db, organizationId: string, given: EventContact[]): Promise<Map<string, string>> {
  const missing = [...new Set(given.filter((contact) => contact.email === undefined).map((contact) => contact.id))];
  if (missing.length === 0) return new Map();
  const rows = await tx
    .select({ id: contacts.id, email: contacts.email })
    .from(contacts)
    .where(and(eq(contacts.organizationId, organizationId), inArray(contacts.id, missing)));
  return new Map(rows.map((row) => [row.id, row.email]));
}
