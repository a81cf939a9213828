import { and, eq } from 'drizzle-orm';
import { audienceMemberships, contacts } from '@/db/schema';
import type { Deps } from '../../deps';
import { validationError } from '../../errors';
import { ownAudience } from '../audiences/crud';
import { doubleOptInOf, type DoubleOptInAsk } from '../double-opt-in/asked';
import { refuseRuleSegment } from '../segments/crud';
import type { Principal } from '../shared/principal';
import { audienceContactColumns, contactView, type ContactView } from './fields';
import { createContact } from './create';
import { createContactProfile } from './profile-write';
import type { ContactInput } from './upsert';

/**
 * The spec's `POST /audiences/{id}/contacts` with `double_opt_in` (docs/consent.md, "Asking"):
 * `POST /contacts` with the audience as its one segment, so everything is that route's (pending,
 * the confirmation through the admit door, the re-send throttle, the cap, the ledger's `pending`
 * by the key or member), and the audience is joined on confirmation. `subscribed: false` (out of
 * this audience) asks nobody to confirm, as `unsubscribed: true` does not. The answer is the
 * audience route's contact: `subscribed: false, pending: true` until the person confirms. The
 * audience is checked first, so another organization's is 404 whatever the body says; with
 * `double_opt_in: false` (and no `confirmation`) it is the spec's create.
 */
export async function createContactMaybeAskingConfirmation(deps: Deps, principal: Principal, audienceId: string, input: ContactInput, ask: DoubleOptInAsk): Promise<ContactView> {
  const audience = await ownAudience(deps.db, principal, audienceId);
  refuseRuleSegment(audience);
  const doubleOptIn = doubleOptInOf(ask);
  if (!doubleOptIn) return createContact(deps, principal, audience.id, input);
  if (input.subscribed === false) throw validationError('double_opt_in: a contact unsubscribed in the audience is not asked to confirm; leave out one of the two');
  const { contact } = await createContactProfile(deps, principal, {
    email: input.email,
    name: input.name,
    firstName: input.firstName,
    lastName: input.lastName,
    unsubscribed: input.unsubscribed,
    properties: input.properties,
    segmentIds: [audience.id],
    doubleOptIn,
  });
  const [member] = await deps.db
    .select(audienceContactColumns)
    .from(audienceMemberships)
    .innerJoin(contacts, eq(contacts.id, audienceMemberships.contactId))
    .where(and(eq(audienceMemberships.audienceId, audience.id), eq(contacts.id, contact.id)));
  if (member) return contactView(member);
  // Not a member until it confirms: the contact as the audience will hold it.
  return { id: contact.id, email: contact.email, name: contact.name, subscribed: false, pending: contact.pending, createdAt: contact.createdAt, updatedAt: contact.updatedAt };
}
