import { and, eq, inArray, or } from 'drizzle-orm';
import { suppressions } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { newId } from '../../ids';
import { normalizeAddress } from '../shared/addresses';
import { suppressionHash } from './address-hash';
import type { SuppressionReason } from '../../vocabulary/suppression-reasons';

/**
 * Puts an address on the organization's list, in the caller's transaction. The first entry
 * stands: a later bounce of an address already there changes nothing. Returns whether it was new.
 */
export async function suppressAddress(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  input: { organizationId: string; email: string; reason: SuppressionReason; emailId?: string | null },
): Promise<boolean> {
  const rows = await tx
    .insert(suppressions)
    .values({
      id: newId(),
      organizationId: input.organizationId,
      email: normalizeAddress(input.email),
      reason: input.reason,
      emailId: input.emailId ?? null,
      createdAt: deps.clock.now(),
    })
    .onConflictDoNothing({ target: [suppressions.organizationId, suppressions.email] })
    .returning({ id: suppressions.id });
  return rows.length > 0;
}

/**
 * Which of these addresses the organization has suppressed, as given (so callers can split
 * recipients): by the address, or by its hash for an erased address (address-hash.ts).
 */
export async function suppressedAmong(db: Db, encryptionKey: Buffer, organizationId: string, addresses: string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const byNormal = new Map(addresses.map((address) => [normalizeAddress(address), address]));
  const byHash = new Map([...byNormal.keys()].map((address) => [suppressionHash(encryptionKey, organizationId, address), address]));
  const rows = await db
    .select({ email: suppressions.email, emailHash: suppressions.emailHash })
    .from(suppressions)
    .where(and(eq(suppressions.organizationId, organizationId), or(inArray(suppressions.email, [...byNormal.keys()]), inArray(suppressions.emailHash, [...byHash.keys()]))));
  return new Set(rows.map((row) => byNormal.get(row.email ?? byHash.get(row.emailHash!)!)!));
}
