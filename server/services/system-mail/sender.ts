import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { systemMailAddress, type Config } from '../../config';
import { serviceDkimKeyPem } from '../shared/dkim-key';

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
/** SYSTEM_MAIL_DKIM_PRIVATE_KEY unset: the key generated into DATA_DIR. */
const KEY_FILE = 'system-mail-dkim.pem';

/** Read once at start: an unusable key stops the process there, not at the first message. */
export function loadSystemSender(config: Config): SystemSender {
  const address = systemMailAddress(config.systemMailFrom);
  if (!address) throw new Error(`SYSTEM_MAIL_FROM has no address (got "${config.systemMailFrom}")`);
  const privateKey = createPrivateKey(serviceDkimKeyPem(config.systemMailDkim.privateKey, config.dataDir, KEY_FILE));
  return {
    from: config.systemMailFrom,
    domain: address.slice(address.lastIndexOf('@') + 1).toLowerCase(),
    returnPath: RETURN_PATH,
    selector: config.systemMailDkim.selector,
    privateKey,
    publicKey: createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64'),
  };
}
