import fs from 'node:fs';
import path from 'node:path';
import { generate } from 'selfsigned';
import type { Log } from '../log';

export interface GatewayTls {
  key: string;
  cert: string;
  /** Where they came from: what the start log and a reload say. */
  source: 'configured' | 'generated';
}

/** A PEM given inline, or the path of a file that holds one. */
function pemOf(value: string, name: string): string {
  if (value.includes('-----BEGIN ')) return value.replace(/\\n/g, '\n');
  try {
    return fs.readFileSync(value, 'utf8');
  } catch (error) {
    throw new Error(`${name}: neither a PEM nor a readable file (${(error as Error).message})`);
  }
}

const GENERATED_DIR = 'smtp-tls';

/**
 * The SMTP gateway's certificate: SMTP_TLS_CERT and SMTP_TLS_KEY when both are set (read again on
 * each call, so SIGHUP picks up a renewed one), else a self-signed one for MAIL_HOST, generated
 * once into DATA_DIR and kept, with a warning: clients must then be told to skip verification.
 */
export async function loadGatewayTls(options: { cert: string | undefined; key: string | undefined; dataDir: string; hostName: string; log: Log }): Promise<GatewayTls> {
  if (options.cert || options.key) {
    if (!options.cert || !options.key) throw new Error('SMTP_TLS_CERT and SMTP_TLS_KEY go together: set both, or neither for a generated self-signed certificate');
    return { cert: pemOf(options.cert, 'SMTP_TLS_CERT'), key: pemOf(options.key, 'SMTP_TLS_KEY'), source: 'configured' };
  }
  const dir = path.join(options.dataDir, GENERATED_DIR);
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  if (!fs.existsSync(certFile) || !fs.existsSync(keyFile)) {
    const pems = await generate([{ name: 'commonName', value: options.hostName }], {
      keyType: 'ec',
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 10 * 365 * 86_400_000),
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2 as const, value: options.hostName }] }],
    });
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(keyFile, pems.private, { mode: 0o600 });
    fs.writeFileSync(certFile, pems.cert);
  }
  options.log.warn(
    { certFile },
    `SMTP gateway: no SMTP_TLS_CERT/SMTP_TLS_KEY, using the self-signed certificate in ${certFile}: mail clients will not trust it; set a real certificate for production`,
  );
  return { cert: fs.readFileSync(certFile, 'utf8'), key: fs.readFileSync(keyFile, 'utf8'), source: 'generated' };
}
