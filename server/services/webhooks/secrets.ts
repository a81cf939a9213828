import { randomBytes } from 'node:crypto';
import { open, seal } from '../../crypto/secret-box';

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

export const sealSecret = (secret: string, key: Buffer): string => seal(secret, key);

// Opening costs an AES-GCM decryption per delivery; the sealed text is the cache key, so a rotated
// secret (a new sealed text) is read at once.
const opened = new Map<string, string>();
const MAX_CACHED = 10_000;

export function openSecret(sealed: string, key: Buffer): string {
  let secret = opened.get(sealed);
  if (secret === undefined) {
    secret = open(sealed, key);
    if (opened.size >= MAX_CACHED) opened.clear();
    opened.set(sealed, secret);
  }
  return secret;
}
