import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config';
import { buildDomainRecords, type DnsRecord } from './records';

/** The shared onboarding domain, as the pipeline signs for it. */
export interface SandboxDomain {
  name: string;
  returnPath: string;
  selector: string;
  privateKeyPem: string;
  /** Base64 SubjectPublicKeyInfo, the `p=` of its DKIM record. */
  publicKey: string;
}

const RETURN_PATH = 'send';

function privateKeyPem(config: Config): string {
  const given = config.sandboxDkim.privateKey;
  if (given) return given.includes('-----BEGIN') ? given : fs.readFileSync(given, 'utf8');
  const file = path.join(config.dataDir, 'sandbox-dkim.pem');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    fs.writeFileSync(file, privateKey, { mode: 0o600, flag: 'wx' });
  }
  return fs.readFileSync(file, 'utf8');
}

/** The sandbox domain with its signing key, or null when SANDBOX_DOMAIN is not set. Read once at start. */
export function loadSandboxDomain(config: Config): SandboxDomain | null {
  if (!config.sandboxDomain) return null;
  const pem = privateKeyPem(config);
  const publicKey = createPublicKey(createPrivateKey(pem)).export({ type: 'spki', format: 'der' }).toString('base64');
  return { name: config.sandboxDomain, returnPath: RETURN_PATH, selector: config.sandboxDkim.selector, privateKeyPem: pem, publicKey };
}

/** The records the operator publishes for the sandbox domain (`npm run admin -- sandbox:records`). */
export function sandboxRecords(sandbox: SandboxDomain, mailHost: string): DnsRecord[] {
  return buildDomainRecords({ name: sandbox.name, selector: sandbox.selector, publicKey: sandbox.publicKey, returnPath: sandbox.returnPath, mailHost });
}
