import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * VERP return paths: every recipient of every email gets its own envelope sender
 *
 *   bounces+<emailId>.<recipientIndex>.<tag>@<returnPath>.<domain>
 *
 * so a bounce that arrives at our bounce receiver names the email and the recipient by the address
 * it was sent to, whether or not the remote server writes a parseable DSN. The tag is an HMAC of
 * "<emailId>.<recipientIndex>": the Message-ID shows every recipient the email id, and without
 * the tag any of them could forge bounces that suppress the other recipients.
 */

const VERP_LOCAL_PREFIX = 'bounces';
const TAG_HEX_CHARS = 10;
const PATTERN = /^bounces\+([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(\d{1,4})\.([0-9a-f]{10})@(.+)$/;

/** The VERP key, derived from the key for secrets at rest so every process sharing the database agrees on it. */
export function verpKeyFrom(encryptionKey: Buffer): Buffer {
  return createHmac('sha256', encryptionKey).update('eumail verp v1').digest();
}

const tagOf = (key: Buffer, emailId: string, recipientIndex: number) =>
  createHmac('sha256', key).update(`${emailId}.${recipientIndex}`).digest('hex').slice(0, TAG_HEX_CHARS);

/** `bounces+<emailId>.<index>.<tag>@<returnPathDomain>`; 60 characters of local part at most (RFC 5321 allows 64). */
export function verpAddress(key: Buffer, emailId: string, recipientIndex: number, returnPathDomain: string): string {
  if (!Number.isInteger(recipientIndex) || recipientIndex < 0 || recipientIndex > 9999) throw new Error(`recipient index out of range: ${recipientIndex}`);
  const id = emailId.toLowerCase();
  return `${VERP_LOCAL_PREFIX}+${id}.${recipientIndex}.${tagOf(key, id, recipientIndex)}@${returnPathDomain.toLowerCase()}`;
}

/**
 * The email and recipient a bounce was sent back for, or null when the address is not one of ours
 * or its tag does not match (forged or mangled). Case-insensitive: some MTAs change the case.
 */
export function parseVerpAddress(key: Buffer, address: string): { emailId: string; recipientIndex: number; domain: string } | null {
  const match = PATTERN.exec(address.trim().replace(/^<|>$/g, '').toLowerCase());
  if (!match) return null;
  const [, emailId, index, tag, domain] = match as unknown as [string, string, string, string, string];
  const recipientIndex = Number(index);
  const expected = Buffer.from(tagOf(key, emailId, recipientIndex));
  if (!timingSafeEqual(expected, Buffer.from(tag))) return null;
  return { emailId, recipientIndex, domain };
}
