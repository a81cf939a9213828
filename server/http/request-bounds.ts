import { MAX_REQUEST_TARGET_BYTES } from '../trpc/request-limits';

/** Bounds on what a request may send before anything routes it: the target's is shared with the operations (trpc/request-limits.ts). */
export { MAX_REQUEST_TARGET_BYTES };

/**
 * Node's `maxHeaderSize` counts the request line and the header fields together: 8 KiB of request
 * target plus 24 KiB of headers (cookies and all), above Node's own 16 KiB default.
 */
export const MAX_HEAD_BYTES = MAX_REQUEST_TARGET_BYTES + 24 * 1024;

const REQUEST_LINE_START = /^[A-Z]+ /;

/**
 * Whether a head Node refused as too large (HPE_HEADER_OVERFLOW) was refused for its request
 * line: the packet Node was reading starts a request whose first line runs past the bound. A
 * request line trickled in pieces is read as headers (431 instead of 414): both are the refusal.
 */
export function isRequestLineOverflow(packet: Buffer | undefined): boolean {
  if (!packet) return false;
  const start = packet.toString('latin1', 0, Math.min(packet.length, MAX_REQUEST_TARGET_BYTES + 32));
  if (!REQUEST_LINE_START.test(start)) return false;
  const lineEnd = start.indexOf('\r\n');
  return lineEnd === -1 || lineEnd > MAX_REQUEST_TARGET_BYTES;
}
