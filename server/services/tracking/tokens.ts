import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * Open and click tracking (docs/tracking.md).
 *
 * Token = base64url( emailId (16 bytes) [+ link index (uint16 BE), clicks only] + tag (12 bytes) ),
 * tag = HMAC-SHA256(trackingKey, kind byte ‖ the bytes before it), truncated to 96 bits, where
 * trackingKey = HMAC-SHA256(encryptionKey, "eumail tracking v1"). The kind byte ('o' or 'c') keeps an
 * open token from ever being read as a click token and back; tokens are deterministic, so a
 * rebuilt message (a retry) carries the same ones.
 */

const TAG_BYTES = 12;
const ID_BYTES = 16;
const OPEN_TOKEN_BYTES = ID_BYTES + TAG_BYTES;
const CLICK_TOKEN_BYTES = ID_BYTES + 2 + TAG_BYTES;
/** The link index is a uint16: past this many distinct URLs, further links stay as written. */
export const MAX_TRACKED_LINKS = 0x10000;

type Kind = 'open' | 'click';
const KIND_BYTE: Record<Kind, number> = { open: 0x6f, click: 0x63 };

export function trackingKeyFrom(encryptionKey: Buffer): Buffer {
  return createHmac('sha256', encryptionKey).update('eumail tracking v1').digest();
}

function tag(key: Buffer, kind: Kind, body: Buffer): Buffer {
  return createHmac('sha256', key)
    .update(Buffer.of(KIND_BYTE[kind]))
    .update(body)
    .digest()
    .subarray(0, TAG_BYTES);
}

export function uuidBytes(id: string): Buffer {
  const hex = id.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`not a UUID: ${id}`);
  return Buffer.from(hex, 'hex');
}

function uuidFromBytes(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function openBody(emailId: string): Buffer {
  return uuidBytes(emailId);
}

function clickBody(emailId: string, index: number): Buffer {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_TRACKED_LINKS) throw new Error(`link index out of range: ${index}`);
  const body = Buffer.alloc(ID_BYTES + 2);
  uuidBytes(emailId).copy(body);
  body.writeUInt16BE(index, ID_BYTES);
  return body;
}

function seal(trackingKey: Buffer, kind: Kind, body: Buffer): string {
  return Buffer.concat([body, tag(trackingKey, kind, body)]).toString('base64url');
}

/** The open token of an email, with the tracking key already derived (once per message). */
export const sealedOpenToken = (trackingKey: Buffer, emailId: string) => seal(trackingKey, 'open', openBody(emailId));

/** The click token of an email's link number `index`, with the tracking key already derived. */
export const sealedClickToken = (trackingKey: Buffer, emailId: string, index: number) => seal(trackingKey, 'click', clickBody(emailId, index));

/** The token of an email's open pixel. */
export function openToken(encryptionKey: Buffer, emailId: string): string {
  return seal(trackingKeyFrom(encryptionKey), 'open', openBody(emailId));
}

/** The token of an email's link number `index`. */
export function clickToken(encryptionKey: Buffer, emailId: string, index: number): string {
  return seal(trackingKeyFrom(encryptionKey), 'click', clickBody(emailId, index));
}

/**
 * What a token says, or null when it is not one this key made for this kind: wrong length or
 * alphabet, a non-canonical encoding, or a tag that does not match (compared in constant time).
 */
export function verifyToken(encryptionKey: Buffer, kind: 'open', token: string): { emailId: string } | null;
export function verifyToken(encryptionKey: Buffer, kind: 'click', token: string): { emailId: string; index: number } | null;
export function verifyToken(encryptionKey: Buffer, kind: Kind, token: string): { emailId: string; index?: number } | null {
  const size = kind === 'open' ? OPEN_TOKEN_BYTES : CLICK_TOKEN_BYTES;
  if (token.length !== Math.ceil((size * 4) / 3) || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  // Unused low bits of the last character would let several strings decode alike: only the canonical one counts.
  if (bytes.length !== size || bytes.toString('base64url') !== token) return null;
  const body = bytes.subarray(0, size - TAG_BYTES);
  const expected = tag(trackingKeyFrom(encryptionKey), kind, body);
  if (!timingSafeEqual(expected, bytes.subarray(size - TAG_BYTES))) return null;
  const emailId = uuidFromBytes(body.subarray(0, ID_BYTES));
  return kind === 'open' ? { emailId } : { emailId, index: body.readUInt16BE(ID_BYTES) };
}
