import type { Deps } from '../../../../deps';
import { judgeDkim } from '../../../domains/authentication/dkim';
import { readTxt } from '../../../domains/authentication/dns-read';
import { senderOf } from '../../../domains/authentication/sender-read';
import type { PreflightWarning } from '../verdict';

/**
 * Messages are signed with d= the From domain, so they align with it whenever receivers can verify
 * the signature: the DKIM record at the active key's selector, read now as receivers read it,
 * must carry that key. Without it DMARC rests on SPF alone, and on nothing at a forwarder. The
 * shared sandbox domain is ours and aligned; a domain that is not the account's is a refusal, not a
 * warning.
 */
export async function alignmentWarning(deps: Pick<Deps, 'db' | 'config'>, organizationId: string, from: string): Promise<PreflightWarning | null> {
  const sender = await senderOf(deps, organizationId, from);
  if (sender.kind !== 'registered') return null;
  const name = `${sender.selector}._domainkey.${sender.domain}`;
  const { dkim } = await readTxt(deps.config.dnsServers, { dkim: name });
  // The email preflight is an API call only (the dashboard has no screen for it): the fix names the calls.
  const judged = judgeDkim({ fromDomain: sender.domain, name, publicKey: sender.publicKey, answer: dkim, reader: 'application' });
  if (judged.status === 'pass') return null;
  return { code: 'from_not_aligned', message: `From is ${sender.domain}, but receivers may not verify our DKIM signature for it, so DMARC alignment rests on SPF alone. ${judged.detail}` };
}
