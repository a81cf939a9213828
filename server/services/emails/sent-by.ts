import { and, eq } from 'drizzle-orm';
import { apiKeys, broadcasts } from '@/db/schema';
import type { Deps } from '../../deps';
import type { Principal } from '../shared/principal';
import { ownEmail } from './read';

/** Who sent an email, as its page names them. */
export const SENDER_KINDS = ['api_key', 'smtp', 'dashboard', 'broadcast'] as const;
export type SenderKind = (typeof SENDER_KINDS)[number];

export interface SentBy {
  /** `api_key` (REST or tRPC with a key), `smtp` (the relay, logged in with a key), `dashboard` (a signed-in person), `broadcast` (a broadcast's fan-out). */
  kind: SenderKind;
  /** The key of an API or relay send, by its current name; null when none (or it no longer exists). */
  key: { id: string; name: string; revoked: boolean } | null;
  broadcast: { id: string; name: string } | null;
}

/**
 * Which API key, channel or broadcast sent the caller's email (404 as for reading it). A send
 * without a key came from a person in the dashboard (a template's test send, a broadcast's test
 * copies): the session's principal carries no key.
 */
export async function sentByOf(deps: Pick<Deps, 'db'>, principal: Principal, id: string): Promise<SentBy> {
  const row = await ownEmail(deps, principal, id);
  if (row.broadcastId) {
    const [broadcast] = await deps.db
      .select({ id: broadcasts.id, name: broadcasts.name })
      .from(broadcasts)
      .where(and(eq(broadcasts.id, row.broadcastId), eq(broadcasts.organizationId, principal.organizationId)));
    return { kind: 'broadcast', key: null, broadcast: broadcast ?? null };
  }
  const kind: SenderKind = row.submittedVia === 'smtp' ? 'smtp' : row.apiKeyId ? 'api_key' : 'dashboard';
  if (!row.apiKeyId) return { kind, key: null, broadcast: null };
  const [key] = await deps.db
    .select({ id: apiKeys.id, name: apiKeys.name, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, row.apiKeyId), eq(apiKeys.organizationId, principal.organizationId)));
  return { kind, key: key ? { id: key.id, name: key.name, revoked: key.revokedAt !== null } : null, broadcast: null };
}
