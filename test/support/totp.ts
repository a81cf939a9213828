import { createHmac } from 'node:crypto';

/** RFC 4648 base32, as an otpauth:// URI carries the secret. */
function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The base32 secret of an otpauth:// URI, as an authenticator app reads it. */
export const secretOfUri = (uri: string): string => {
  const secret = new URL(uri).searchParams.get('secret');
  if (!secret) throw new Error(`no secret in ${uri}`);
  return secret;
};

/**
 * The TOTP code an authenticator app shows (RFC 6238 over RFC 4226: HMAC-SHA-1, 30-second steps,
 * 6 digits), computed here so that tests do not trust the code under test to make its own codes.
 */
export function totpCode(base32Secret: string, atMs = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / 30)));
  const digest = createHmac('sha1', base32Decode(base32Secret)).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = (digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(binary).padStart(6, '0');
}

/** A code that is certainly wrong now: none of the steps a verifier accepts (the current one and its neighbours). */
export function wrongCode(base32Secret: string, atMs = Date.now()): string {
  const accepted = new Set([-60_000, -30_000, 0, 30_000, 60_000].map((shift) => totpCode(base32Secret, atMs + shift)));
  for (let n = 0; ; n += 1) {
    const candidate = String(n * 111_111 % 1_000_000).padStart(6, '0');
    if (!accepted.has(candidate)) return candidate;
  }
}
