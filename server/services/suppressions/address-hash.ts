import { createHmac } from 'node:crypto';

/*
 * What an erased address's suppression entry keeps instead of the address (docs/privacy.md):
 * HMAC-SHA256(hashKey, organizationId ":" address), hex, where hashKey =
 * HMAC-SHA256(ENCRYPTION_KEY, "eumail suppression v1"). Keyed, so a copy of the database alone
 * cannot test guessed addresses against it; with the organization in it, one address hashes
 * differently in every organization, so entries cannot be matched across organizations.
 */

const hashKeys = new WeakMap<Buffer, Buffer>();

function hashKeyFrom(encryptionKey: Buffer): Buffer {
  let key = hashKeys.get(encryptionKey);
  if (!key) hashKeys.set(encryptionKey, (key = createHmac('sha256', encryptionKey).update('eumail suppression v1').digest()));
  return key;
}

/** The hash of an address that is already normalised (lowercase, ASCII domain: normalizeAddress). */
export function suppressionHash(encryptionKey: Buffer, organizationId: string, normalizedAddress: string): string {
  return createHmac('sha256', hashKeyFrom(encryptionKey)).update(`${organizationId}:${normalizedAddress}`).digest('hex');
}
