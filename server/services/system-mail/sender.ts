import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { systemMailAddress, type Config } from '../../config';

/**
 * The service as a sender of its own mail: SYSTEM_MAIL_FROM's domain, which signs it (DKIM d=,
 * so DMARC aligns with the From a customer sees) and names its Message-IDs and return path.
 */
export interface SystemSender {
  /** SYSTEM_MAIL_FROM as given, the From header. */
  from: string;
  /** Its domain, lowercased. */
  domain: string;
  /** The return-path label: bounces come back to `<returnPath>.<domain>`, whose MX is MAIL_HOST. */
  returnPath: string;
  selector: string;
  /** Parsed once: a KeyObject signs without parsing PEM again for every message. */
  privateKey: KeyObject;
  /** Base64 SubjectPublicKeyInfo, the `p=` of its DKIM record. */
  publicKey: string;
}

// The label customers' domains default to, so the operator publishes the same shape of records.
const RETURN_PATH = 'send';
const KEY_FILE = 'system-mail-dkim.pem';

/** SYSTEM_MAIL_DKIM_PRIVATE_KEY as PEM or a file path; unset, a key generated once into DATA_DIR and kept. */
function privateKeyPem(config: Config): string {
  const given = config.systemMailDkim.privateKey;
  if (given) return given.includes('-----BEGIN') ? given : fs.readFileSync(given, 'utf8');
  const file = path.join(config.dataDir, KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    try {
      fs.writeFileSync(file, privateKey, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process of this DATA_DIR (the CLI beside the server) wrote it first: theirs is the key.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return fs.readFileSync(file, 'utf8');
}

/** Read once at start: an unusable key stops the process there, not at the first message. */
export function loadSystemSender(config: Config): SystemSender {
  const address = systemMailAddress(config.systemMailFrom);
  if (!address) throw new Error(`SYSTEM_MAIL_FROM has no address (got "${config.systemMailFrom}")`);
  const privateKey = createPrivateKey(privateKeyPem(config));
  return {
    from: config.systemMailFrom,
    domain: address.slice(address.lastIndexOf('@') + 1).toLowerCase(),
    returnPath: RETURN_PATH,
    selector: config.systemMailDkim.selector,
    privateKey,
    publicKey: createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64'),
  };
}
