import { and, eq, isNotNull, or, type SQL } from 'drizzle-orm';
import { suppressions } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound, validationError } from '../../errors';
import { newId } from '../../ids';
import { AddressError, normalizeAddress } from '../shared/addresses';
import { suppressionHash } from './address-hash';
import { recordSuppressionAdded, recordSuppressionRemoved, recordSuppressionsImported } from './audit';
import { fetchPage, type Page } from '../shared/pagination';
import type { Principal } from '../shared/principal';
import { containsLowercase } from '../shared/substring-search';
import type { CallerReason, SuppressionReason } from '../../vocabulary/suppression-reasons';
import { declareConsentSource, sourceOfPrincipal } from '../consent/source';
import { logConsentChanges } from '../consent/events';

// The suppression list as the API manages it. Bounces and complaints are written by
// `suppressAddress` (suppressions.ts) from delivery reports; sending reads `suppressedAmong`.

type SuppressionRow = typeof suppressions.$inferSelect;
/** An entry that names its address: every entry but an erased address's, whose hash stands in for it (docs/privacy.md). */
type ListedRow = SuppressionRow & { email: string };
const isListed = (row: SuppressionRow): row is ListedRow => row.email !== null;

export interface SuppressionView {
  id: string;
  /** Normalised: lowercase, the domain in ASCII (IDN as punycode). */
  email: string;
  reason: SuppressionReason;
  createdAt: string;
  /** The email whose bounce or complaint put the address here; null for the other reasons. */
  emailId: string | null;
}

export const suppressionView = (row: ListedRow): SuppressionView => ({
  id: row.id,
  email: row.email,
  reason: row.reason,
  createdAt: row.createdAt.toISOString(),
  emailId: row.emailId,
});

/**
 * The form an address takes on the list, or an AddressError saying why it cannot be one. The
 * address parser of sends decides (IDN domains included), so whatever a send could be addressed
 * to can be suppressed; a display name (`Ada <ada@example.com>`) is refused rather than guessed at.
 */
export function suppressionAddress(input: string): string {
  if (/[<>]/.test(input)) throw new AddressError('give the bare address, without a display name or angle brackets');
  return normalizeAddress(input);
}


/**
 * Case-insensitive substring of the stored address. Addresses are stored lowercase, so the term is
 * lowercased here and the column is compared as it is: `email LIKE '%term%'`, which the trigram
 * index (`suppressions_email_trgm_idx`, gin_trgm_ops) serves.
 */
export const searchCondition = (search: string): SQL => containsLowercase(suppressions.email, search);

export interface SuppressionFilter {
  limit: number;
  cursor?: string;
  search?: string;
  reason?: SuppressionReason;
}

/** Newest first, in cursor pages; `search` and `reason` ANDed. An erased address's entry is not listed: it has no address to show. */
export async function listSuppressions(deps: Pick<Deps, 'db'>, principal: Principal, filter: SuppressionFilter): Promise<Page<SuppressionView>> {
  const page = await fetchPage(suppressions.id, filter, ({ where, orderBy, limit }) =>
    deps.db
      .select()
      .from(suppressions)
      .where(
        and(
          eq(suppressions.organizationId, principal.organizationId),
          isNotNull(suppressions.email),
          filter.search ? searchCondition(filter.search) : undefined,
          filter.reason ? eq(suppressions.reason, filter.reason) : undefined,
          where,
        ),
      )
      .orderBy(orderBy)
      .limit(limit),
  );
  return { data: page.data.filter(isListed).map(suppressionView), nextCursor: page.nextCursor };
}

/**
 * Puts one address on the list, idempotently on its normalised form: when it is there already, the
 * existing entry is the answer, unchanged (the first entry stands, as for bounces).
 */
export async function addSuppression(deps: Pick<Deps, 'db' | 'clock' | 'jobs'>, principal: Principal, input: { email: string; reason: CallerReason }): Promise<SuppressionView> {
  let email: string;
  try {
    email = suppressionAddress(input.email);
  } catch (error) {
    if (error instanceof AddressError) throw validationError(`email: ${error.message}`);
    throw error;
  }
  // Inserted, or else read; a concurrent removal between the two makes it try again.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const created = await deps.db.transaction(async (tx) => {
      await declareConsentSource(tx, sourceOfPrincipal(principal));
      const [inserted] = await tx
        .insert(suppressions)
        .values({ id: newId(), organizationId: principal.organizationId, email, reason: input.reason, emailId: null, createdAt: deps.clock.now() })
        .onConflictDoNothing({ target: [suppressions.organizationId, suppressions.email] })
        .returning();
      if (inserted && isListed(inserted)) await recordSuppressionAdded(tx, deps, principal, inserted);
      await logConsentChanges(tx, deps);
      return inserted;
    });
    if (created && isListed(created)) return suppressionView(created);
    const [existing] = await deps.db
      .select()
      .from(suppressions)
      .where(and(eq(suppressions.organizationId, principal.organizationId), eq(suppressions.email, email)));
    if (existing && isListed(existing)) return suppressionView(existing);
  }
  throw new Error('the suppression entry kept vanishing while it was being added');
}

export interface BatchOutcome {
  /** New entries. */
  added: number;
  /** Distinct valid addresses that were on the list already (left as they were). */
  alreadySuppressed: number;
  /** Each address that is not one, as given, with the reason. */
  invalid: Array<{ email: string; error: string }>;
}

/**
 * Up to SUPPRESSION_LIMITS.batch addresses: each normalised, repeats (after normalisation) taken
 * once, invalid ones reported without failing the others, and the rest inserted in one statement
 * that leaves existing entries alone.
 */
export async function addSuppressions(deps: Pick<Deps, 'db' | 'clock' | 'jobs'>, principal: Principal, input: { emails: string[]; reason: CallerReason }): Promise<BatchOutcome> {
  const invalid: BatchOutcome['invalid'] = [];
  const addresses = new Set<string>();
  for (const given of input.emails) {
    try {
      addresses.add(suppressionAddress(given));
    } catch (error) {
      if (!(error instanceof AddressError)) throw error;
      invalid.push({ email: given, error: error.message });
    }
  }
  if (addresses.size === 0) return { added: 0, alreadySuppressed: 0, invalid };
  const now = deps.clock.now();
  const inserted = await deps.db.transaction(async (tx) => {
    await declareConsentSource(tx, sourceOfPrincipal(principal));
    const rows = await tx
      .insert(suppressions)
      .values([...addresses].map((email) => ({ id: newId(), organizationId: principal.organizationId, email, reason: input.reason, emailId: null, createdAt: now })))
      .onConflictDoNothing({ target: [suppressions.organizationId, suppressions.email] })
      .returning({ id: suppressions.id });
    await recordSuppressionsImported(tx, deps, principal, rows.length, input.reason);
    await logConsentChanges(tx, deps);
    return rows;
  });
  return { added: inserted.length, alreadySuppressed: addresses.size - inserted.length, invalid };
}

/** Which entry `DELETE /suppressions/{id}` means: its id, or its address (normalised here). */
export type SuppressionTarget = { id: string } | { email: string };

/** The condition naming an entry by id, or by address (an erased address's entry by its hash); 400 for an address that cannot be one. */
function entryCondition(deps: Pick<Deps, 'encryptionKey'>, principal: Principal, target: SuppressionTarget): SQL | undefined {
  try {
    if ('id' in target) return eq(suppressions.id, target.id);
    const address = suppressionAddress(target.email);
    return or(eq(suppressions.email, address), eq(suppressions.emailHash, suppressionHash(deps.encryptionKey, principal.organizationId, address)));
  } catch (error) {
    if (error instanceof AddressError) throw validationError(`id: ${error.message}`);
    throw error;
  }
}

/**
 * One entry, by id or by address (Resend's `GET /suppressions/{idOrEmail}`); 404 when the
 * organization has none. An erased address's entry is found by the address given, and shows it:
 * the caller named it, and it is still suppressed.
 */
export async function getSuppression(deps: Pick<Deps, 'db' | 'encryptionKey'>, principal: Principal, target: SuppressionTarget): Promise<SuppressionView> {
  const which = entryCondition(deps, principal, target);
  const [row] = await deps.db
    .select()
    .from(suppressions)
    .where(and(eq(suppressions.organizationId, principal.organizationId), which))
    .limit(1);
  if (!row) throw notFound('Suppression');
  if (isListed(row)) return suppressionView(row);
  // Found by its hash: the entry names no address, so by an id it is not shown (as in the list).
  if ('id' in target) throw notFound('Suppression');
  return suppressionView({ ...row, email: suppressionAddress(target.email) });
}

/**
 * Takes an entry off the list; 404 when the organization has no such entry. By address, an erased
 * address's hashed entry goes too: the address given is hashed to find it.
 */
export async function removeSuppression(deps: Pick<Deps, 'db' | 'clock' | 'jobs' | 'encryptionKey'>, principal: Principal, target: SuppressionTarget): Promise<void> {
  const which = entryCondition(deps, principal, target);
  await deps.db.transaction(async (tx) => {
    await declareConsentSource(tx, { ...sourceOfPrincipal(principal), at: deps.clock.now() });
    const deleted = await tx
      .delete(suppressions)
      .where(and(eq(suppressions.organizationId, principal.organizationId), which))
      .returning();
    if (deleted.length === 0) throw notFound('Suppression');
    for (const entry of deleted) await recordSuppressionRemoved(tx, deps, principal, entry);
    await logConsentChanges(tx, deps);
  });
}
