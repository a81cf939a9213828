import { and, eq } from 'drizzle-orm';
import { domains } from '@/db/schema';
import type { Deps } from '../../../deps';
import { activeKey } from '../repo';
import { AddressError, parseMailbox } from '../../shared/addresses';
import type { Sender } from './sender';

/** A domain of the account, with what SPF and DKIM are checked against: its return path and active key. */
export type SigningSender = Extract<Sender, { kind: 'registered' }> & { returnPath: string; selector: string; publicKey: string };

/** The broadcast's From domain as the account holds it. */
export async function senderOf(deps: Pick<Deps, 'db' | 'config'>, organizationId: string, from: string): Promise<Exclude<Sender, { kind: 'registered' }> | SigningSender> {
  let domain: string;
  try {
    domain = parseMailbox(from).domain;
  } catch (error) {
    if (!(error instanceof AddressError)) throw error;
    return { kind: 'invalid', from, reason: error.message };
  }
  if (domain === deps.config.sandboxDomain) return { kind: 'sandbox', domain };
  const [row] = await deps.db
    .select({ id: domains.id, status: domains.status, failureReason: domains.failureReason, returnPath: domains.returnPath })
    .from(domains)
    .where(and(eq(domains.organizationId, organizationId), eq(domains.name, domain)));
  if (!row) return { kind: 'unregistered', domain };
  const key = await activeKey(deps.db, row.id);
  return { kind: 'registered', domain, ...row, selector: key.selector, publicKey: key.publicKey };
}
