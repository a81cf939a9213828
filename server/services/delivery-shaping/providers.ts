import type { ProviderLimits } from '../../mail/shaping';

/**
 * The mailbox providers we know by their MX hosts, with the limits we start from. A recipient
 * domain belongs to a provider when its first MX host (or, failing that, any of them) ends in one
 * of the provider's suffixes: Google Workspace domains, Microsoft 365 tenants and the providers'
 * own consumer domains all land on the provider's shared infrastructure, which is what throttles
 * us. Any other MX host is a provider of its own ("other" limits), named by that host.
 *
 * Why these numbers (docs/delivery.md, "The table"): the large providers take high volume and say
 * so with a 421 when they want less, so they start unlimited per minute and the replies set the
 * pace; the smaller European ones are known to refuse bursts outright (Orange, GMX/Web.de,
 * T-Online) and start with a rate. Connections are per process; messages per minute are per
 * sending domain.
 */
export interface KnownProvider {
  id: string;
  label: string;
  /** MX host name suffixes (lowercase, no trailing dot). */
  mx: string[];
  limits: ProviderLimits;
}

/** Any MX host we do not know: today's pool (5 connections, 100 emails each) and no rate, so a healthy run is never slowed. */
export const OTHER_LIMITS: ProviderLimits = { connections: 5, messagesPerConnection: 100, messagesPerMinute: null };

export const KNOWN_PROVIDERS: readonly KnownProvider[] = [
  { id: 'google', label: 'Google (Gmail, Workspace)', mx: ['google.com', 'googlemail.com', 'smtp.goog'], limits: { connections: 20, messagesPerConnection: 100, messagesPerMinute: null } },
  { id: 'microsoft', label: 'Microsoft (Outlook.com, Microsoft 365)', mx: ['outlook.com', 'hotmail.com', 'protection.outlook.com'], limits: { connections: 10, messagesPerConnection: 100, messagesPerMinute: null } },
  { id: 'yahoo', label: 'Yahoo and AOL', mx: ['yahoodns.net', 'yahoo.com', 'aol.com'], limits: { connections: 5, messagesPerConnection: 50, messagesPerMinute: null } },
  { id: 'apple', label: 'Apple (iCloud)', mx: ['mail.icloud.com', 'mail.me.com', 'icloud.com'], limits: { connections: 10, messagesPerConnection: 100, messagesPerMinute: null } },
  { id: 'gmx-webde', label: 'GMX, Web.de, 1&1 IONOS (United Internet)', mx: ['gmx.net', 'gmx.de', 'web.de', 'kundenserver.de', 'ionos.de', 'ionos.com', 'ui-mx.net'], limits: { connections: 5, messagesPerConnection: 50, messagesPerMinute: 600 } },
  { id: 'orange', label: 'Orange / Wanadoo', mx: ['orange.fr', 'wanadoo.fr'], limits: { connections: 3, messagesPerConnection: 20, messagesPerMinute: 300 } },
  { id: 't-online', label: 'Deutsche Telekom (T-Online)', mx: ['t-online.de'], limits: { connections: 3, messagesPerConnection: 20, messagesPerMinute: 300 } },
  { id: 'free', label: 'Free', mx: ['free.fr'], limits: { connections: 3, messagesPerConnection: 50, messagesPerMinute: 600 } },
  { id: 'sfr', label: 'SFR', mx: ['sfr.fr', 'neuf.fr'], limits: { connections: 3, messagesPerConnection: 50, messagesPerMinute: 600 } },
  { id: 'laposte', label: 'La Poste', mx: ['laposte.net'], limits: { connections: 3, messagesPerConnection: 50, messagesPerMinute: 300 } },
  { id: 'proton', label: 'Proton Mail', mx: ['protonmail.ch', 'proton.me'], limits: { connections: 5, messagesPerConnection: 100, messagesPerMinute: null } },
  { id: 'zoho', label: 'Zoho Mail', mx: ['zoho.com', 'zoho.eu', 'zohomail.com'], limits: { connections: 5, messagesPerConnection: 100, messagesPerMinute: null } },
  { id: 'yandex', label: 'Yandex', mx: ['yandex.net', 'yandex.ru'], limits: { connections: 5, messagesPerConnection: 50, messagesPerMinute: null } },
  { id: 'mailru', label: 'Mail.ru', mx: ['mail.ru'], limits: { connections: 5, messagesPerConnection: 50, messagesPerMinute: null } },
];

const byId = new Map(KNOWN_PROVIDERS.map((provider) => [provider.id, provider]));
export const knownProvider = (id: string): KnownProvider | undefined => byId.get(id);

const normalHost = (host: string) => host.toLowerCase().replace(/\.$/, '');
const endsIn = (host: string, suffix: string) => host === suffix || host.endsWith(`.${suffix}`);
const knownFor = (host: string) => KNOWN_PROVIDERS.find((provider) => provider.mx.some((suffix) => endsIn(host, suffix)));

/**
 * The provider a domain's mail goes to, from its MX hosts in priority order: a known provider when
 * the first host (or another) is one of theirs, otherwise the first host itself. A domain without
 * MX (implicit MX) is its own host.
 */
export function providerIdOf(domain: string, mxHosts: string[]): string {
  const hosts = (mxHosts.length > 0 ? mxHosts : [domain]).map(normalHost);
  for (const host of hosts) {
    const known = knownFor(host);
    if (known) return known.id;
  }
  return hosts[0]!;
}
