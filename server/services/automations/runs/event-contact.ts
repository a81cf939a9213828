import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { automations, automationVersions } from '@/db/schema';
import type { Deps } from '../../../deps';
import type { ContactCreation } from '../../../vocabulary/automations';
import { sourceOfPrincipal } from '../../consent/source';
import { createContactProfileIn } from '../../contacts/profile-write';
import type { ContactRow } from '../../contacts/own';
import { ownContact } from '../../contacts/own';
import type { Principal } from '../../shared/principal';

/**
 * An event sent for an address that is no contact (docs/automations.md, "Creating the contact"):
 * when an enabled automation it triggers asks for it (`create_contact: true` in its current
 * trigger), the contact is created in the event's transaction, as `POST /contacts` with the
 * address alone would (subscribed, in no segment; the plan's contact cap, the consent ledger, the
 * audit log, `contact.created` and the automations it starts), so the event then starts its runs as
 * for any contact. A test key creates nothing (contacts are live, shared state): it answers that it
 * would have, and starts nothing. Null when no automation asks; `creation` null when another event
 * created the contact meanwhile.
 */
export async function contactForEvent(tx: Db, deps: Deps, principal: Principal, event: string, address: string): Promise<{ contact: ContactRow | null; creation: ContactCreation | null } | null> {
  if (!(await someTriggerCreatesContacts(tx, principal.organizationId, event))) return null;
  if (principal.mode === 'test') return { contact: null, creation: 'skipped_test_mode' };
  const created = await createContactProfileIn(tx, deps, principal, { email: address }, sourceOfPrincipal(principal));
  // A concurrent event for the same address made it first (the cap's organization lock ordered the two): this one found it.
  return { contact: await ownContact(tx, principal, { id: created.contact.id }), creation: created.created ? 'created' : null };
}

/** Whether an enabled automation on this event has `create_contact: true` in its current trigger (the partial index on enabled triggers finds them). */
async function someTriggerCreatesContacts(tx: Db, organizationId: string, event: string): Promise<boolean> {
  const [row] = await tx
    .select({ one: sql<number>`1` })
    .from(automations)
    .innerJoin(automationVersions, and(eq(automationVersions.automationId, automations.id), eq(automationVersions.version, automations.currentVersion)))
    .where(
      and(
        eq(automations.organizationId, organizationId),
        eq(automations.triggerEventName, event),
        eq(automations.status, 'enabled'),
        isNull(automations.deletedAt),
        sql`exists (select 1 from jsonb_array_elements(${automationVersions.definition} -> 'steps') step where step ->> 'type' = 'trigger' and (step -> 'config' ->> 'create_contact')::boolean is true)`,
      ),
    )
    .limit(1);
  return row !== undefined;
}
