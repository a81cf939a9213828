import type { Config } from '../../config';
import { AUDIT_RETENTION_DAYS } from '../audit/retention';

export interface SecurityMeasure {
  id: string;
  title: string;
  detail: string;
}

/**
 * The technical and organisational measures (Art. 30(1)(g), 32) this code takes, each one true of
 * it: docs/security.md, docs/tracking.md and docs/privacy.md say where. What depends on how the
 * operator runs it (TLS in front of APP_URL, the relay) is read from the configuration.
 */
export function securityMeasures(config: Pick<Config, 'appUrl' | 'smtpRelayUrl'>): SecurityMeasure[] {
  const https = config.appUrl.startsWith('https:');
  const relay = config.smtpRelayUrl ? new URL(config.smtpRelayUrl) : null;
  return [
    {
      id: 'secrets_sealed',
      title: 'Secrets sealed at rest',
      detail: 'DKIM private keys and webhook signing secrets are stored sealed with AES-256-GCM under the service’s ENCRYPTION_KEY, which is kept out of the database.',
    },
    { id: 'api_keys_hashed', title: 'API keys stored hashed', detail: 'An API key is shown once at creation and stored only as its SHA-256 hash.' },
    {
      id: 'passwords_hashed',
      title: 'Passwords hashed, sign-ins throttled',
      detail: 'Dashboard passwords are hashed with scrypt; sign-in attempts are throttled per account and per client address.',
    },
    {
      id: 'https',
      title: https ? 'HTTPS for the API and dashboard' : 'HTTPS not configured',
      detail: https
        ? `The service is published at ${config.appUrl} and tells browsers to insist on HTTPS (Strict-Transport-Security).`
        : `The service is published at ${config.appUrl}, without TLS: the operator should put it behind a TLS-terminating proxy with an https APP_URL.`,
    },
    {
      id: 'smtp_tls',
      title: 'TLS for mail in transit',
      detail: relay
        ? `Every message is handed to the relay ${relay.hostname} over ${relay.protocol === 'smtps:' ? 'implicit TLS' : 'STARTTLS when it offers it'}. The SMTP gateway offers STARTTLS and implicit TLS.`
        : 'Messages go to each recipient’s mail server with STARTTLS whenever the server offers it (opportunistic TLS, as mail servers do). The SMTP gateway offers STARTTLS and implicit TLS.',
    },
    { id: 'dkim', title: 'Signed messages', detail: 'Every message is DKIM-signed with its sending domain’s key, so receivers can tell it was not altered.' },
    {
      id: 'tracking_minimised',
      title: 'Tracking data minimised',
      detail: 'Opens and clicks keep the client’s IP address truncated to its network (/24 for IPv4, /48 for IPv6) and the user agent capped at 512 characters; tracking and unsubscribe links are signed tokens.',
    },
    {
      id: 'erasure_hashed',
      title: 'Erasure keeps no address',
      detail: 'Erasing an address deletes its emails, events, contacts and suppression entries; only an address that asked not to be mailed keeps a suppression entry, as a keyed HMAC-SHA256 hash.',
    },
    {
      id: 'isolation',
      title: 'Organizations and modes kept apart',
      detail: 'Every read and change is scoped to the caller’s organization (another organization’s ids answer 404); test-mode keys never see live emails.',
    },
    {
      id: 'access_control',
      title: 'Least-privilege keys and rate limits',
      detail: 'API keys have full or sending-only access, optionally pinned to one sending domain; requests are rate limited per organization.',
    },
    {
      id: 'webhooks',
      title: 'Signed webhooks to public endpoints only',
      detail: 'Webhook payloads are signed (Standard Webhooks, HMAC-SHA256); an endpoint that resolves to a private, loopback or internal address is refused before each delivery.',
    },
    { id: 'logs_minimised', title: 'Logs without addresses', detail: 'Request logs leave out query strings, email addresses in paths, and tracking and unsubscribe tokens.' },
    {
      id: 'audit_log',
      title: 'Audit log',
      detail: `Changes to API keys, domains, webhooks, the plan and account, sign-ins and erasures are recorded with who, when and from where, and kept ${AUDIT_RETENTION_DAYS} days.`,
    },
    { id: 'retention', title: 'Deletion, not archiving', detail: 'Emails, events and attachment contents are deleted when their retention ends, by a sweep that runs every hour.' },
  ];
}
