import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import type { Config } from '../../config';
import { buildDomainRecords, type DnsRecord } from './records';
import { serviceDkimKeyPem } from '../shared/dkim-key';

/** The shared onboarding domain, as the pipeline signs for it. */
export interface SandboxDomain {
  /** The same in every organization and across restarts: derived from the name (sandboxDomainId). */
  id: string;
  name: string;
  returnPath: string;
  selector: string;
  privateKeyPem: string;
  /** Base64 SubjectPublicKeyInfo, the `p=` of its DKIM record. */
  publicKey: string;
}

const RETURN_PATH = 'send';

/**
 * A name-based UUID (RFC 9562 version 5 layout over SHA-1) of the sandbox's name: every process
 * and every organization sees one id for it, with no row to store, and renaming the sandbox gives
 * a new id, as a different domain should have.
 */
export function sandboxDomainId(name: string): string {
  const bytes = createHash('sha1').update(`eu-mail sandbox domain:${name}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Whether a send's From domain is the sandbox. */
export const isSandboxName = (config: Pick<Config, 'sandboxDomain'>, domain: string): boolean => domain.toLowerCase() === config.sandboxDomain;

/** The sandbox domain with its signing key. Read once at start; it always exists (docs/domains.md). */
export function loadSandboxDomain(config: Config): SandboxDomain {
  const pem = serviceDkimKeyPem(config.sandboxDkim.privateKey, config.dataDir, 'sandbox-dkim.pem');
  const publicKey = createPublicKey(createPrivateKey(pem)).export({ type: 'spki', format: 'der' }).toString('base64');
  return { id: sandboxDomainId(config.sandboxDomain), name: config.sandboxDomain, returnPath: RETURN_PATH, selector: config.sandboxDkim.selector, privateKeyPem: pem, publicKey };
}

/** The records the operator publishes for the sandbox domain (`npm run admin -- sandbox:records`). */
export function sandboxRecords(sandbox: SandboxDomain, mailHost: string): DnsRecord[] {
  return buildDomainRecords({ name: sandbox.name, selector: sandbox.selector, publicKey: sandbox.publicKey, returnPath: sandbox.returnPath, mailHost });
}
