import { createHmac, timingSafeEqual } from 'node:crypto';
import { uuidBytes } from '../tracking/tokens';

/*
 * A broadcast message's unsubscribe token (docs/broadcasts.md): base64url( membershipId (16 bytes) ‖
 * emailId (16 bytes) ‖ tag (12 bytes) ), tag = HMAC-SHA256(unsubscribeKey, the 32 bytes before it)
 * truncated to 96 bits, unsubscribeKey = HMAC-SHA256(encryptionKey, "eumail unsubscribe v1"). It
 * names the contact's membership of the audience (a contact id, in tokens sent before contacts
 * became one per address: migration 0034 kept each such id as its membership's), so it still
 * works after the email itself has expired, and the email, so the
 * unsubscribe is recorded in that email's history. 59 characters: with the mailto prefix it fits an address's local part (64 at most).
 */

const TAG_BYTES = 12;
const BODY_BYTES = 32;
const TOKEN_BYTES = BODY_BYTES + TAG_BYTES;
const TOKEN_CHARS = Math.ceil((TOKEN_BYTES * 4) / 3);
/** The mailto address's local part is this prefix and the token. */
// Short: with the 59-character token the local part stays within RFC 5321's 64 characters.
export const MAILTO_PREFIX = 'u-';

export interface UnsubscribeTarget {
  membershipId: string;
  emailId: string;
}

export const unsubscribeKeyFrom = (encryptionKey: Buffer): Buffer => createHmac('sha256', encryptionKey).update('eumail unsubscribe v1').digest();

const tagOf = (key: Buffer, body: Buffer) => createHmac('sha256', key).update(body).digest().subarray(0, TAG_BYTES);

const uuidFrom = (bytes: Buffer) => {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** The token of one contact's copy of a broadcast, with the key already derived (once per chunk). */
export function sealUnsubscribeToken(unsubscribeKey: Buffer, target: UnsubscribeTarget): string {
  const body = Buffer.concat([uuidBytes(target.membershipId), uuidBytes(target.emailId)]);
  return Buffer.concat([body, tagOf(unsubscribeKey, body)]).toString('base64url');
}

/** What a token names, or null when this key did not make it (compared in constant time; only the canonical encoding counts). */
export function openUnsubscribeToken(encryptionKey: Buffer, token: string): UnsubscribeTarget | null {
  if (token.length !== TOKEN_CHARS || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length !== TOKEN_BYTES || bytes.toString('base64url') !== token) return null;
  const body = bytes.subarray(0, BODY_BYTES);
  if (!timingSafeEqual(tagOf(unsubscribeKeyFrom(encryptionKey), body), bytes.subarray(BODY_BYTES))) return null;
  return { membershipId: uuidFrom(body.subarray(0, 16)), emailId: uuidFrom(body.subarray(16, 32)) };
}

/** Where a recipient unsubscribes: the one-click URL (RFC 8058), and the mailto address at our mail host, which the bounce receiver takes. */
export function unsubscribeLinks(config: { appUrl: string; mailHost: string }, token: string): { url: string; mailto: string } {
  return { url: `${config.appUrl}/unsubscribe/${token}`, mailto: `${MAILTO_PREFIX}${token}@${config.mailHost}` };
}

/**
 * The token of a mailto unsubscribe address (`u-<token>@<any domain>`), or null when the
 * address is not one; whether the token is ours is {@link openUnsubscribeToken}'s to say. The
 * prefix is matched in any case, the token exactly (base64url is case-sensitive).
 */
export function mailtoToken(address: string): string | null {
  const bare = address.trim().replace(/^<|>$/g, '');
  const at = bare.lastIndexOf('@');
  if (at <= MAILTO_PREFIX.length) return null;
  if (bare.slice(0, MAILTO_PREFIX.length).toLowerCase() !== MAILTO_PREFIX) return null;
  return bare.slice(MAILTO_PREFIX.length, at);
}

/** What stands for a token in test copies and previews: their links name no contact and unsubscribe no one. */
export const SAMPLE_UNSUBSCRIBE_TOKENS = ['test', 'preview'] as const;

export const sampleUnsubscribeUrl = (appUrl: string, kind: (typeof SAMPLE_UNSUBSCRIBE_TOKENS)[number]) => `${appUrl}/unsubscribe/${kind}`;
