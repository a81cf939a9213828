import type { Config } from '../../config';

/** Where everything this service processes is stored and handled (SPEC: processing, storage and delivery stay in the EU). */
export const PROCESSING_REGION = 'EU';

/** The service as it names itself to its customers (better-auth's appName, Domain Connect). */
export const SERVICE_NAME = 'EU Mail';

export type HostRole = 'service' | 'mail_host' | 'relay' | 'recipient_mx';
export const HOST_ROLES = ['service', 'mail_host', 'relay', 'recipient_mx'] as const satisfies readonly HostRole[];

export interface ServiceHost {
  host: string;
  role: HostRole;
  purpose: string;
}

/** The smarthost of SMTP_RELAY_URL as host[:port]: never its credentials. */
export function relayHostOf(config: Pick<Config, 'smtpRelayUrl'>): { hostname: string; label: string } | null {
  if (!config.smtpRelayUrl) return null;
  const url = new URL(config.smtpRelayUrl);
  return { hostname: url.hostname, label: url.port ? `${url.hostname}:${url.port}` : url.hostname };
}

/** The hosts of this deployment that handle every message: the public API, the mail host, and the relay when one is configured. */
export function serviceHosts(config: Pick<Config, 'appUrl' | 'mailHost' | 'smtpRelayUrl'>): ServiceHost[] {
  const hosts: ServiceHost[] = [
    { host: new URL(config.appUrl).host, role: 'service', purpose: `The API (${config.appUrl}/api) and dashboard: accepts, stores and tracks the message` },
    { host: config.mailHost, role: 'mail_host', purpose: 'Hands the message to receiving servers (EHLO name) and receives their bounce and complaint reports' },
  ];
  const relay = relayHostOf(config);
  if (relay) hosts.push({ host: relay.label, role: 'relay', purpose: 'The SMTP relay (smarthost) every message is handed to, which delivers it on' });
  return hosts;
}
