import { createResolver, lookup } from '../../net/dns';
import { dkimValue, type DnsRecord, type RecordStatus } from './records';

export type RecordStatuses = Record<DnsRecord['record'], RecordStatus>;

const tags = (value: string) =>
  new Map(
    value
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const at = part.indexOf('=');
        return [part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).replace(/\s+/g, '')] as const;
      }),
  );

const sameHost = (a: string, b: string) => a.replace(/\.$/, '').toLowerCase() === b.replace(/\.$/, '').toLowerCase();

function judgeTxt(found: Awaited<ReturnType<typeof lookup<string[][]>>>, matches: (value: string) => boolean): RecordStatus {
  if (found.kind === 'transient') return 'temporary_failure';
  if (found.kind === 'absent') return 'pending';
  // A TXT record arrives as its 255-byte strings; the value is their concatenation.
  return found.value.map((strings) => strings.join('')).some(matches) ? 'verified' : 'failed';
}

/**
 * Reads the published records through the configured DNS servers and judges each: verified,
 * pending (not published yet), failed (published with another value) or temporary_failure
 * (the DNS did not answer, so nothing can be concluded).
 */
export async function checkDomainRecords(dnsServers: string[], records: DnsRecord[], expected: { publicKey: string; mailHost: string }): Promise<RecordStatuses> {
  const resolver = createResolver(dnsServers);
  const byKind = Object.fromEntries(records.map((record) => [record.record, record])) as Record<DnsRecord['record'], DnsRecord>;
  const [dkim, mx, spf, dmarc] = await Promise.all([
    lookup(() => resolver.resolveTxt(byKind.DKIM.name)),
    lookup(() => resolver.resolveMx(byKind.MX.name)),
    lookup(() => resolver.resolveTxt(byKind.SPF.name)),
    lookup(() => resolver.resolveTxt(byKind.DMARC.name)),
  ]);
  const expectedKey = tags(dkimValue(expected.publicKey)).get('p');
  const spfInclude = `include:${expected.mailHost}`.toLowerCase();
  return {
    DKIM: judgeTxt(dkim, (value) => {
      const found = tags(value);
      return (found.get('v') ?? 'DKIM1') === 'DKIM1' && found.get('p') === expectedKey;
    }),
    MX:
      mx.kind === 'transient' ? 'temporary_failure' : mx.kind === 'absent' ? 'pending' : mx.value.some((m) => sameHost(m.exchange, expected.mailHost)) ? 'verified' : 'failed',
    SPF: judgeTxt(spf, (value) => {
      const terms = value.toLowerCase().split(/\s+/);
      return terms[0] === 'v=spf1' && terms.some((term) => term.replace(/^[+~?]/, '') === spfInclude);
    }),
    DMARC: judgeTxt(dmarc, (value) => /^v=DMARC1\s*(;|$)/i.test(value.trim())),
  };
}
