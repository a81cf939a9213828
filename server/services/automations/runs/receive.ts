import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { automationRuns, contacts, receivedEvents } from '@/db/schema';
import type { Deps } from '../../../deps';
import { newId } from '../../../ids';
import { contactAddressOrRefuse } from '../../contacts/fields';
import { ownContact } from '../../contacts/own';
import type { Principal } from '../../shared/principal';
import type { WaitForEventConfig } from '../step-configs';
import type { ContactCreation } from '../../../vocabulary/automations';
import { contactForEvent } from './event-contact';
import { contactOf, judge, type ConditionNode } from './evaluate';
import { startRuns, wakeRuns } from './start';
import { versionGraph } from './version-graph';

/** An event of the customer's own, for one contact (Resend's `events.send`). */
export interface ReceivedEvent {
  event: string;
  contact: { id: string } | { email: string };
  payload: Record<string, unknown>;
}

export interface EventReceipt {
  id: string;
  event: string;
  /** Null when the address is no contact of the organization (and no trigger created it): the event is kept and starts nothing. */
  contactId: string | null;
  runsStarted: number;
  waitsEnded: number;
  /** For an address that was no contact, when a trigger asks to create it (`create_contact`): `created`, or `skipped_test_mode`; else null. */
  contactCreation: ContactCreation | null;
}

/**
 * Records the event and, in the same transaction, starts the runs whose trigger it is and ends the
 * waits for it: each run of this contact waiting for this event name (at a `wait_for_event` step
 * whose filter the payload passes) is given the event and due now. Sent with a test key, it starts
 * and ends only test runs (their emails simulated); a live event, only live ones. A contact id
 * that is not the organization's is 404; an address that is no contact is kept, and starts nothing
 * unless a trigger on the event asks to create the contact (`create_contact`, event-contact.ts).
 */
export async function receiveEvent(deps: Deps, principal: Principal, input: ReceivedEvent): Promise<EventReceipt> {
  const test = principal.mode === 'test';
  const receipt = await deps.db.transaction(async (tx) => {
    const found =
      'id' in input.contact
        ? await ownContact(tx, principal, { id: input.contact.id }, { field: 'contact_id' })
        : ((await tx
            .select()
            .from(contacts)
            .where(and(eq(contacts.organizationId, principal.organizationId), eq(contacts.email, contactAddressOrRefuse(input.contact.email, 'email')))))[0] ?? null);
    // An address that is no contact: created when a trigger on the event asks for it (event-contact.ts).
    const made = found || 'id' in input.contact ? null : await contactForEvent(tx, deps, principal, input.event, contactAddressOrRefuse(input.contact.email, 'email'));
    const contact = found ?? made?.contact ?? null;
    const now = deps.clock.now();
    const started = contact ? await startRuns(tx, deps, { organizationId: principal.organizationId, name: input.event, payload: input.payload, test, contacts: [{ id: contact.id, email: contact.email }] }) : [];

    const woken: string[] = [];
    if (contact) {
      const waiting = await tx
        .select({ id: automationRuns.id, automationId: automationRuns.automationId, version: automationRuns.version, stepKey: automationRuns.stepKey })
        .from(automationRuns)
        .where(and(eq(automationRuns.contactId, contact.id), eq(automationRuns.waitingFor, input.event), eq(automationRuns.status, 'running'), isNotNull(automationRuns.waitingFor), eq(automationRuns.test, test)))
        .for('update');
      for (const run of waiting) {
        const step = (await versionGraph(tx, run.automationId, run.version)).step(run.stepKey);
        const filter = (step?.config as WaitForEventConfig | undefined)?.filter_rule as ConditionNode | undefined;
        if (filter && !judge(filter, { contact: contactOf(contact), payload: input.payload, email: { opened: false, clicked: false } })) continue;
        woken.push(run.id);
      }
      if (woken.length > 0) {
        await tx
          .update(automationRuns)
          .set({ receivedEvent: { name: input.event, payload: input.payload }, waitingFor: null, dueAt: now, updatedAt: now })
          .where(sql`${automationRuns.id} in (${sql.join(woken.map((id) => sql`${id}::uuid`), sql`, `)})`);
      }
    }
    const id = newId();
    await tx.insert(receivedEvents).values({
      id,
      organizationId: principal.organizationId,
      name: input.event,
      contactId: contact?.id ?? null,
      email: contact?.email ?? ('email' in input.contact ? contactAddressOrRefuse(input.contact.email, 'email') : ''),
      payload: input.payload,
      test,
      runsStarted: started.length,
      waitsEnded: woken.length,
      contactCreation: made?.creation ?? null,
      createdAt: now,
    });
    return { id, event: input.event, contactId: contact?.id ?? null, runsStarted: started.length, waitsEnded: woken.length, contactCreation: made?.creation ?? null, wake: [...started, ...woken] };
  });
  wakeRuns(deps, receipt.wake);
  const { wake: _wake, ...answer } = receipt;
  return answer;
}
