import { startSmtpGateway, type GatewayLimits, type SmtpGateway } from '@/server/mail/gateway-server';
import type { TestApp } from './app';
import { selfSignedCertificate } from './loopback-https';

/** The SMTP relay gateway of a test app on 127.0.0.1, both ports on free ones, a fresh self-signed certificate. */
export async function startTestGateway(app: TestApp, limits?: Partial<GatewayLimits>): Promise<SmtpGateway> {
  return startSmtpGateway({
    deps: app.runtime.deps,
    host: '127.0.0.1',
    name: 'smtp.eumail.example',
    ports: { starttls: 0, implicitTls: 0 },
    tls: { ...(await selfSignedCertificate(['smtp.eumail.example'])), source: 'generated' },
    limits,
  });
}
