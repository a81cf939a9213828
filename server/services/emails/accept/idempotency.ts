import { and, eq } from 'drizzle-orm';
import { emails } from '@/db/schema';
import type { Deps } from '../../../deps';
import type { Principal } from '../../shared/principal';

/** The email an Idempotency-Key took within its 24 hours, in the key's organization and mode. */
export async function findByIdempotencyKey(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, key: string): Promise<string | null> {
  const [row] = await deps.db
    .select({ id: emails.id, expiresAt: emails.idempotencyExpiresAt })
    .from(emails)
    .where(and(eq(emails.organizationId, principal.organizationId), eq(emails.mode, principal.mode), eq(emails.idempotencyKey, key)));
  return row && row.expiresAt && row.expiresAt > deps.clock.now() ? row.id : null;
}
