import { buildDomainRecords, type DnsRecord } from '../domains/records';
import type { SystemSender } from './sender';

export interface SystemMailRecords {
  domain: string;
  from: string;
  records: DnsRecord[];
  /** What each record is for, for the operator who publishes them (`npm run admin -- system-mail:records`). */
  advice: string[];
}

/**
 * The records SYSTEM_MAIL_FROM's domain publishes so the service's own mail passes DKIM, SPF and
 * DMARC: the same set a customer's domain publishes, since it is sent the same way.
 */
export function systemMailRecords(sender: SystemSender, mailHost: string): SystemMailRecords {
  const records = buildDomainRecords({ name: sender.domain, selector: sender.selector, publicKey: sender.publicKey, returnPath: sender.returnPath, mailHost });
  const returnPath = `${sender.returnPath}.${sender.domain}`;
  return {
    domain: sender.domain,
    from: sender.from,
    records,
    advice: [
      `DKIM: publish the TXT at ${sender.selector}._domainkey.${sender.domain}; every message of the service is signed with d=${sender.domain}, s=${sender.selector}. A new key (SYSTEM_MAIL_DKIM_PRIVATE_KEY, or a new DATA_DIR) means a new record: publish it under a new SYSTEM_MAIL_DKIM_SELECTOR before switching.`,
      `SPF: the envelope sender is on ${returnPath}, so its TXT (include:${mailHost}) is what SPF checks; an SPF record at ${sender.domain} itself stays as it is. With SMTP_RELAY_URL set, include the relay's SPF there instead.`,
      `MX: ${returnPath} → ${mailHost} brings bounces back to the bounce receiver.`,
      `DMARC: the DKIM signature aligns with the From (${sender.domain}); publish _dmarc.${sender.domain} if the domain has none (p=none to start, then quarantine or reject once reports show only this service and your own servers sending as it).`,
    ],
  };
}
