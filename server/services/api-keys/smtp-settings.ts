import type { Config } from '../../config';

/**
 * What a mail client needs to relay through the SMTP gateway with a sending_access key as the
 * password (docs/smtp-gateway.md). The settings live here, beside the keys that log in with them:
 * the dashboard shows them next to a key.
 */
export interface SmtpSettings {
  host: string;
  /** STARTTLS (required before AUTH); null when the port is off. */
  starttlsPort: number | null;
  /** TLS from the first byte; null when the port is off. */
  implicitTlsPort: number | null;
  username: typeof SMTP_USERNAME;
  certificate: SmtpCertificate;
}

/** The gateway takes any username (the key is the password): this one is the convention. */
export const SMTP_USERNAME = 'apikey';

/**
 * `self-signed` when SMTP_TLS_CERT is unset and the gateway made its own: clients must then skip
 * verification, which is for trying the service out only.
 */
export const SMTP_CERTIFICATES = ['configured', 'self-signed'] as const;
export type SmtpCertificate = (typeof SMTP_CERTIFICATES)[number];

/** Port 0 turns a listener off. */
const portOrOff = (port: number): number | null => (port === 0 ? null : port);

export function smtpSettings(config: Pick<Config, 'mailHost' | 'smtpGateway'>): SmtpSettings {
  return {
    host: config.mailHost,
    starttlsPort: portOrOff(config.smtpGateway.port),
    implicitTlsPort: portOrOff(config.smtpGateway.tlsPort),
    username: SMTP_USERNAME,
    certificate: config.smtpGateway.cert ? 'configured' : 'self-signed',
  };
}
