import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { newId } from '../../ids';
import type { ConsentVia } from '../../vocabulary/consent';
import type { Principal } from '../shared/principal';

/**
 * What a change of consent came through, as the writing transaction declares it. The ledger's
 * triggers (migration 0042) read it from the transaction's `eumail.consent_source` setting and copy
 * it onto every entry the transaction writes; a path that declares nothing writes `unrecorded`
 * (bounces and complaints excepted: a suppression's reason says those).
 */
export interface ConsentSource {
  via: ConsentVia;
  apiKeyId?: string | null;
  userId?: string | null;
  importId?: string | null;
  formId?: string | null;
  formVersion?: number | null;
  emailId?: string | null;
  /** The person's own client, when they made the change themselves (a form, a link, a page). */
  clientAddress?: string | null;
  userAgent?: string | null;
  /** When, for an entry whose row carries no time of its own (a suppression removed). */
  at?: Date;
}

/** The organization's own act: its API key, or a member in the dashboard. */
export function sourceOfPrincipal(principal: Principal): ConsentSource {
  return principal.keyId ? { via: 'api', apiKeyId: principal.keyId } : { via: 'dashboard', userId: principal.userId };
}

/**
 * Declares the source of the consent changes the transaction `tx` will write; it holds until the
 * transaction ends. Must be called inside a transaction: outside one it would end with its own statement.
 */
export async function declareConsentSource(tx: Db, source: ConsentSource): Promise<void> {
  const { at, ...rest } = source;
  // `batch` marks the entries of this transaction: its contact.consent_changed events are made from them (./events.ts).
  const value = JSON.stringify({ ...rest, at: at?.toISOString(), batch: newId() });
  await tx.execute(sql`select set_config('eumail.consent_source', ${value}, true)`);
}
