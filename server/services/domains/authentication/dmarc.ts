import { DMARC_VALUE } from '../records';
import { judgement, type Judgement } from './judgement';
import { unanswered, type TxtAnswer } from './dns-answer';
import { parseTagList, txtValues } from './tag-list';

const POLICIES = ['none', 'quarantine', 'reject'] as const;
type Policy = (typeof POLICIES)[number];

/** The DMARC record that applies to the From domain, as a receiver finds it (RFC 7489 §6.6.3). */
export type DmarcFinding =
  | { kind: 'found'; name: string; tags: Map<string, string>; policy: Policy | null; policyTag: 'p' | 'sp' }
  | { kind: 'absent'; names: string[] }
  | { kind: 'multiple'; name: string; count: number }
  | { kind: 'transient'; name: string; code: string };

const isPolicy = (value: string | undefined): value is Policy => (POLICIES as readonly string[]).includes(value ?? '');

const dmarcRecords = (answer: Extract<TxtAnswer, { kind: 'found' }>) => txtValues(answer.value).filter((value) => /^v=DMARC1\s*(;|$)/i.test(value.trim()));

/**
 * The From domain's own `_dmarc` record first, then the organizational domain's, where a
 * subdomain is governed by `sp=` when the record has one. Several records at one name mean no
 * DMARC at all for receivers, so discovery stops there.
 */
export function findDmarc(fromDomain: string, orgDomain: string, atFrom: TxtAnswer, atOrg: TxtAnswer): DmarcFinding {
  const lookups: Array<[string, TxtAnswer, boolean]> = [[`_dmarc.${fromDomain}`, atFrom, false]];
  if (orgDomain !== fromDomain) lookups.push([`_dmarc.${orgDomain}`, atOrg, true]);
  for (const [name, answer, governsSubdomain] of lookups) {
    if (answer.kind === 'absent') continue;
    if (answer.kind === 'transient') return { kind: 'transient', name, code: answer.code };
    const records = dmarcRecords(answer);
    if (records.length > 1) return { kind: 'multiple', name, count: records.length };
    if (records.length === 0) continue;
    const tags = parseTagList(records[0]!);
    const policyTag = governsSubdomain && tags.has('sp') ? 'sp' : 'p';
    const policy = tags.get(policyTag)?.toLowerCase();
    return { kind: 'found', name, tags, policy: isPolicy(policy) ? policy : null, policyTag };
  }
  return { kind: 'absent', names: lookups.map(([name]) => name) };
}

/** Strict SPF alignment (`aspf=s`) asks for the return path to be the From domain itself. */
export const strictSpfAlignment = (finding: DmarcFinding): boolean => finding.kind === 'found' && finding.tags.get('aspf')?.toLowerCase() === 's';

export function judgeDmarc(finding: DmarcFinding, orgDomain: string): Judgement {
  const publish = `publish a TXT record at _dmarc.${orgDomain} with the value "${DMARC_VALUE}"`;
  switch (finding.kind) {
    case 'transient':
      return judgement('warn', unanswered(finding.name, finding));
    case 'absent':
      return judgement(
        'fail',
        `No DMARC record at ${finding.names.join(' or ')}; Gmail and Yahoo require one of bulk senders. To fix it, ${publish}, then move to p=quarantine or p=reject once your reports show only your own mail.`,
      );
    case 'multiple':
      return judgement('fail', `${finding.count} DMARC records at ${finding.name}; receivers then apply none of them. To fix it, keep exactly one, for example "${DMARC_VALUE}".`);
    case 'found': {
      const tag = `${finding.policyTag}=${finding.policy}`;
      if (finding.policy === null) {
        return judgement('fail', `The DMARC record at ${finding.name} has no valid ${finding.policyTag}= policy. To fix it, set ${finding.policyTag}=none, p=quarantine or p=reject, for example "${DMARC_VALUE}".`);
      }
      if (finding.policy === 'none') {
        return judgement(
          'pass',
          `The DMARC record at ${finding.name} has ${tag}: it meets Gmail's and Yahoo's rule, but asks receivers to take no action on mail that fails; p=quarantine or p=reject protects your domain more strongly once your reports show only your own mail.`,
        );
      }
      return judgement('pass', `The DMARC record at ${finding.name} has ${tag}: receivers ${finding.policy} mail that fails authentication in your domain's name.`);
    }
  }
}
