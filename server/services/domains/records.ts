/** The DNS records a customer publishes for a sending domain, and how each is judged. */

import type { DnsRecordKind, DnsRecordStatus } from '../../vocabulary/domain-statuses';

export type RecordStatus = DnsRecordStatus;

export interface DnsRecord {
  /** What the record is for. */
  record: DnsRecordKind;
  type: 'TXT' | 'MX';
  /** The host relative to the domain, as most DNS providers ask for it ("@" for the apex). */
  host: string;
  /** The fully qualified name. */
  name: string;
  /** The value to publish; for long TXT values, `parts` holds the 255-byte strings to enter. */
  value: string;
  parts?: string[];
  ttl: number;
  priority?: number;
  /** DKIM and the return path decide verification; DMARC is recommended. */
  required: boolean;
  status: RecordStatus;
}

interface DomainRecordInput {
  name: string;
  selector: string;
  /** Base64 of the DKIM public key (SubjectPublicKeyInfo, DER). */
  publicKey: string;
  /** The return-path subdomain label, e.g. "send". */
  returnPath: string;
  /** Our mail host: MX target of the return path and the SPF include. */
  mailHost: string;
}

const TTL = 3600;

/** Splits a TXT value into strings of at most 255 bytes (RFC 1035 character-strings). */
export function splitTxt(value: string): string[] {
  const parts: string[] = [];
  for (let i = 0; i < value.length; i += 255) parts.push(value.slice(i, i + 255));
  return parts;
}

export const dkimValue = (publicKey: string) => `v=DKIM1; k=rsa; p=${publicKey}`;
export const spfValue = (mailHost: string) => `v=spf1 include:${mailHost} ~all`;
export const DMARC_VALUE = 'v=DMARC1; p=none;';

export function buildDomainRecords(input: DomainRecordInput, statuses: Partial<Record<DnsRecord['record'], RecordStatus>> = {}): DnsRecord[] {
  const dkim = dkimValue(input.publicKey);
  const returnPathName = `${input.returnPath}.${input.name}`;
  return [
    {
      record: 'DKIM',
      type: 'TXT',
      host: `${input.selector}._domainkey`,
      name: `${input.selector}._domainkey.${input.name}`,
      value: dkim,
      parts: splitTxt(dkim),
      ttl: TTL,
      required: true,
      status: statuses.DKIM ?? 'pending',
    },
    { record: 'MX', type: 'MX', host: input.returnPath, name: returnPathName, value: input.mailHost, ttl: TTL, priority: 10, required: true, status: statuses.MX ?? 'pending' },
    { record: 'SPF', type: 'TXT', host: input.returnPath, name: returnPathName, value: spfValue(input.mailHost), ttl: TTL, required: true, status: statuses.SPF ?? 'pending' },
    { record: 'DMARC', type: 'TXT', host: '_dmarc', name: `_dmarc.${input.name}`, value: DMARC_VALUE, ttl: TTL, required: false, status: statuses.DMARC ?? 'pending' },
  ];
}
