import type { Deps } from '../../../deps';
import type { PreflightCheck } from './checks';
import { judgeDkim } from './dkim';
import { findDmarc, judgeDmarc, strictSpfAlignment } from './dmarc';
import { readTxt } from './dns-read';
import { organizationalDomain } from './organizational-domain';
import { judgeSenderDomain, uncheckedAuthentication } from './sender-domain';
import { senderOf, type SigningSender } from './sender-read';
import { judgeSpf } from './spf';

const returnPathOf = (sender: SigningSender) => `${sender.returnPath}.${sender.domain}`;
const dkimNameOf = (sender: SigningSender) => `${sender.selector}._domainkey.${sender.domain}`;

/** sender_domain, spf, dkim and dmarc: the From domain as the account holds it, and its DNS as receivers read it now. */
export async function authenticationChecks(deps: Pick<Deps, 'db' | 'config'>, organizationId: string, from: string): Promise<PreflightCheck[]> {
  const sender = await senderOf(deps, organizationId, from);
  const domainCheck = judgeSenderDomain(sender);
  if (sender.kind === 'invalid') return [domainCheck, ...uncheckedAuthentication(sender)];
  const orgDomain = organizationalDomain(sender.domain);
  const dnsServers = deps.config.dnsServers;
  const dmarcRead = readTxt(dnsServers, { atFrom: `_dmarc.${sender.domain}`, atOrg: `_dmarc.${orgDomain}` }).then((answers) =>
    findDmarc(sender.domain, orgDomain, answers.atFrom, answers.atOrg),
  );
  if (sender.kind !== 'registered') return [domainCheck, judgeDmarc(await dmarcRead, orgDomain), ...uncheckedAuthentication(sender)];
  const [dmarc, answers] = await Promise.all([dmarcRead, readTxt(dnsServers, { spf: returnPathOf(sender), dkim: dkimNameOf(sender) })]);
  return [
    domainCheck,
    judgeDmarc(dmarc, orgDomain),
    judgeSpf({ fromDomain: sender.domain, returnPathName: returnPathOf(sender), mailHost: deps.config.mailHost, answer: answers.spf, strictAlignment: strictSpfAlignment(dmarc) }),
    judgeDkim({ fromDomain: sender.domain, name: dkimNameOf(sender), publicKey: sender.publicKey, answer: answers.dkim }),
  ];
}
