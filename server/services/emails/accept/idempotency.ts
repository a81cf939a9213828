import { and, eq } from 'drizzle-orm';
import { emails } from '@/db/schema';
import type { Deps } from '../../../deps';
import { conflict } from '../../../errors';
import type { Principal } from '../../shared/principal';

/**
 * The email an Idempotency-Key took within its 24 hours, in the key's organization and mode. Keys
 * are one namespace per organization and mode, so a key pinned to a domain may name one an email
 * of another domain took: that is a 409, and the other email's id is never told (the pinned key
 * could not read or act on that email either).
 */
export async function findByIdempotencyKey(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, key: string): Promise<string | null> {
  const [row] = await deps.db
    .select({ id: emails.id, domainId: emails.domainId, expiresAt: emails.idempotencyExpiresAt })
    .from(emails)
    .where(and(eq(emails.organizationId, principal.organizationId), eq(emails.mode, principal.mode), eq(emails.idempotencyKey, key)));
  if (!row || !row.expiresAt || row.expiresAt <= deps.clock.now()) return null;
  if (principal.domainId && row.domainId !== principal.domainId) {
    throw conflict('This Idempotency-Key was used within 24 hours for an email from a domain this key may not send from; use another Idempotency-Key');
  }
  return row.id;
}
