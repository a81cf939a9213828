import fs from 'node:fs';
import path from 'node:path';
import { generate } from 'selfsigned';
import { open, seal } from '../crypto/secret-box';
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

/** The generated key's file: the PEM sealed with ENCRYPTION_KEY (server/crypto/secret-box.ts), like DKIM keys in the database. */
const SEALED_KEY_FILE = 'key.sealed';
/** Where a generated key was kept in plaintext before it was sealed: read once, sealed, removed. */
const PLAINTEXT_KEY_FILE = 'key.pem';

interface GatewayTlsOptions {
  cert: string | undefined;
  key: string | undefined;
  dataDir: string;
  hostName: string;
  /** Seals the generated key at rest (the runtime's `deps.encryptionKey`). */
  encryptionKey: Buffer;
  log: Log;
}

function writeSealedKey(file: string, keyPem: string, encryptionKey: Buffer): void {
  // Written beside, then renamed over: a crash leaves the old file or the new one, never half of one.
  const partial = `${file}.partial`;
  fs.writeFileSync(partial, seal(keyPem, encryptionKey), { mode: 0o600 });
  fs.renameSync(partial, file);
}

/** The generated key, sealed; one kept in plaintext by an earlier version is sealed now and its plaintext file removed. */
function readGeneratedKey(dir: string, encryptionKey: Buffer, log: Log): string | null {
  const sealedFile = path.join(dir, SEALED_KEY_FILE);
  const plaintextFile = path.join(dir, PLAINTEXT_KEY_FILE);
  if (fs.existsSync(sealedFile)) {
    try {
      return open(fs.readFileSync(sealedFile, 'utf8').trim(), encryptionKey);
    } catch (error) {
      throw new Error(`SMTP gateway: ${sealedFile} does not open with ENCRYPTION_KEY (${(error as Error).message}); restore the key it was sealed with, or remove the smtp-tls folder to generate a new certificate`);
    }
  }
  if (!fs.existsSync(plaintextFile)) return null;
  const keyPem = fs.readFileSync(plaintextFile, 'utf8');
  writeSealedKey(sealedFile, keyPem, encryptionKey);
  fs.rmSync(plaintextFile);
  log.info({ file: sealedFile }, 'SMTP gateway: the generated certificate\'s private key is now sealed with ENCRYPTION_KEY; its plaintext file was removed');
  return keyPem;
}

/**
 * The SMTP gateway's certificate: SMTP_TLS_CERT and SMTP_TLS_KEY when both are set (read again on
 * each call, so SIGHUP picks up a renewed one), else a self-signed one for MAIL_HOST, generated
 * once into DATA_DIR and kept (its private key sealed with ENCRYPTION_KEY), with a warning:
 * clients must then be told to skip verification.
 */
export async function loadGatewayTls(options: GatewayTlsOptions): Promise<GatewayTls> {
  if (options.cert || options.key) {
    if (!options.cert || !options.key) throw new Error('SMTP_TLS_CERT and SMTP_TLS_KEY go together: set both, or neither for a generated self-signed certificate');
    return { cert: pemOf(options.cert, 'SMTP_TLS_CERT'), key: pemOf(options.key, 'SMTP_TLS_KEY'), source: 'configured' };
  }
  const dir = path.join(options.dataDir, GENERATED_DIR);
  const certFile = path.join(dir, 'cert.pem');
  let key = fs.existsSync(certFile) ? readGeneratedKey(dir, options.encryptionKey, options.log) : null;
  if (key === null) {
    const pems = await generate([{ name: 'commonName', value: options.hostName }], {
      keyType: 'ec',
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 10 * 365 * 86_400_000),
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2 as const, value: options.hostName }] }],
    });
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeSealedKey(path.join(dir, SEALED_KEY_FILE), pems.private, options.encryptionKey);
    fs.rmSync(path.join(dir, PLAINTEXT_KEY_FILE), { force: true });
    fs.writeFileSync(certFile, pems.cert);
    key = pems.private;
  }
  options.log.warn(
    { certFile },
    `SMTP gateway: no SMTP_TLS_CERT/SMTP_TLS_KEY, using the self-signed certificate in ${certFile}: mail clients will not trust it; set a real certificate for production`,
  );
  return { cert: fs.readFileSync(certFile, 'utf8'), key, source: 'generated' };
}
