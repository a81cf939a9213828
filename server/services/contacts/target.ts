import { and, eq } from 'drizzle-orm';
import { contacts } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound, validationError } from '../../errors';
import { ownAudience } from '../audiences/crud';
import { AddressError } from '../shared/addresses';
import type { Principal } from '../shared/principal';
import { contactAddress } from './fields';

/** A contact of an audience as a path names it: by id, or by address (Resend's `/audiences/{id}/contacts/{email}`). */
export type ContactTarget = { id: string } | { email: string };

/** The id of the audience's contact the target names; 404 when the audience or the contact is not the organization's. */
export async function contactIdOf(deps: Pick<Deps, 'db'>, principal: Principal, audienceId: string, target: ContactTarget): Promise<string> {
  if ('id' in target) return target.id;
  let email: string;
  try {
    email = contactAddress(target.email);
  } catch (error) {
    if (error instanceof AddressError) throw validationError(`contactId: ${error.message}`);
    throw error;
  }
  const audience = await ownAudience(deps.db, principal, audienceId);
  const [row] = await deps.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.audienceId, audience.id), eq(contacts.email, email)));
  if (!row) throw notFound('Contact');
  return row.id;
}
