import type { Deps } from '../../../deps';
import { judgeDkim } from '../../domains/authentication/dkim';
import { findDmarc, judgeDmarc, strictSpfAlignment } from '../../domains/authentication/dmarc';
import { readTxt } from '../../domains/authentication/dns-read';
import type { Judgement } from '../../domains/authentication/judgement';
import { organizationalDomain } from '../../domains/authentication/organizational-domain';
import { senderOf, type SigningSender } from '../../domains/authentication/sender-read';
import { judgeSpf } from '../../domains/authentication/spf';
import type { Reader } from '../../shared/reader';
import { check, type PreflightCheck, type PreflightCheckId, type PreflightFix } from './checks';
import { judgeSenderDomain, senderFix, uncheckedAuthentication } from './sender-domain';

const returnPathOf = (sender: SigningSender) => `${sender.returnPath}.${sender.domain}`;
const dkimNameOf = (sender: SigningSender) => `${sender.selector}._domainkey.${sender.domain}`;

/** A domain check (domains/authentication/) as the broadcast's pre-flight lists it: the records to fix are the From domain's. */
const asCheck = (id: PreflightCheckId, { status, detail }: Judgement, fix: PreflightFix | null): PreflightCheck => check(id, status, detail, fix);

/** sender_domain, spf, dkim and dmarc: the From domain as the account holds it, and its DNS as receivers read it now. */
export async function authenticationChecks(deps: Pick<Deps, 'db' | 'config'>, organizationId: string, from: string, reader: Reader): Promise<PreflightCheck[]> {
  const sender = await senderOf(deps, organizationId, from);
  const domainCheck = judgeSenderDomain(sender, reader);
  const fix = senderFix(sender);
  if (sender.kind === 'invalid') return [domainCheck, ...uncheckedAuthentication(sender)];
  const orgDomain = organizationalDomain(sender.domain);
  const dnsServers = deps.config.dnsServers;
  const dmarcRead = readTxt(dnsServers, { atFrom: `_dmarc.${sender.domain}`, atOrg: `_dmarc.${orgDomain}` }).then((answers) =>
    findDmarc(sender.domain, orgDomain, answers.atFrom, answers.atOrg),
  );
  if (sender.kind !== 'registered') return [domainCheck, asCheck('dmarc', judgeDmarc(await dmarcRead, orgDomain), fix), ...uncheckedAuthentication(sender)];
  const [dmarc, answers] = await Promise.all([dmarcRead, readTxt(dnsServers, { spf: returnPathOf(sender), dkim: dkimNameOf(sender) })]);
  return [
    domainCheck,
    asCheck('dmarc', judgeDmarc(dmarc, orgDomain), fix),
    asCheck(
      'spf',
      judgeSpf({ fromDomain: sender.domain, returnPathName: returnPathOf(sender), mailHost: deps.config.mailHost, answer: answers.spf, strictAlignment: strictSpfAlignment(dmarc) }),
      fix,
    ),
    asCheck('dkim', judgeDkim({ fromDomain: sender.domain, name: dkimNameOf(sender), publicKey: sender.publicKey, answer: answers.dkim, reader }), fix),
  ];
}
