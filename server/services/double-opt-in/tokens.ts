import { createHmac, timingSafeEqual } from 'node:crypto';
import { uuidBytes } from '../tracking/tokens';

/*
 * A double opt-in confirmation link's token (docs/consent.md): base64url( confirmationId (16 bytes)
 * ‖ expiry (4 bytes, seconds since the epoch, big-endian) ‖ tag (12 bytes) ), tag =
 * HMAC-SHA256(confirmationKey, the 20 bytes before it) truncated to 96 bits, confirmationKey =
 * HMAC-SHA256(encryptionKey, "eumail double opt-in v1"): a purpose of its own, so no other
 * token of the service (an unsubscribe link's) is ever one of these. The expiry is signed, so an
 * expired link is told apart without the database, and nobody can lengthen it. 43 characters.
 */

const TAG_BYTES = 12;
const BODY_BYTES = 20;
const TOKEN_BYTES = BODY_BYTES + TAG_BYTES;
const TOKEN_CHARS = Math.ceil((TOKEN_BYTES * 4) / 3);

export interface ConfirmationLink {
  confirmationId: string;
  expiresAt: Date;
}

const keyFrom = (encryptionKey: Buffer): Buffer => createHmac('sha256', encryptionKey).update('eumail double opt-in v1').digest();

const tagOf = (key: Buffer, body: Buffer) => createHmac('sha256', key).update(body).digest().subarray(0, TAG_BYTES);

const uuidFrom = (bytes: Buffer) => {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

export function sealConfirmationToken(encryptionKey: Buffer, link: ConfirmationLink): string {
  const expiry = Buffer.alloc(4);
  expiry.writeUInt32BE(Math.floor(link.expiresAt.getTime() / 1000));
  const body = Buffer.concat([uuidBytes(link.confirmationId), expiry]);
  return Buffer.concat([body, tagOf(keyFrom(encryptionKey), body)]).toString('base64url');
}

/** What a token names, or null when this key did not make it (compared in constant time; only the canonical encoding counts). Expiry is the caller's to judge. */
export function openConfirmationToken(encryptionKey: Buffer, token: string): ConfirmationLink | null {
  if (token.length !== TOKEN_CHARS || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length !== TOKEN_BYTES || bytes.toString('base64url') !== token) return null;
  const body = bytes.subarray(0, BODY_BYTES);
  if (!timingSafeEqual(tagOf(keyFrom(encryptionKey), body), bytes.subarray(BODY_BYTES))) return null;
  return { confirmationId: uuidFrom(body.subarray(0, 16)), expiresAt: new Date(body.readUInt32BE(16) * 1000) };
}

/** Where the page of a confirmation link lives: `${APP_URL}/confirm-subscription/<token>`. */
export const CONFIRM_SUBSCRIPTION_PATH = '/confirm-subscription';

export const confirmationUrl = (appUrl: string, token: string) => `${appUrl}${CONFIRM_SUBSCRIPTION_PATH}/${token}`;
