import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ERROR_STATUS, type ErrorCode } from '../errors';
import { errorBody } from './error-body';
import { closeLingering } from './linger';

/**
 * An answer written straight to the socket, where Node's HTTP parsing refused the request (or
 * none was read yet) and there is no response object: still the API's {error, code} with a
 * request id, then the connection closes without losing it.
 */
export function refuseOnSocket(socket: Socket, code: ErrorCode, message: string, options: { headers?: Record<string, string>; lingerMs?: number } = {}): void {
  if (socket.destroyed || !socket.writable) return void socket.destroy();
  const requestId = randomUUID();
  const status = ERROR_STATUS[code];
  const body = JSON.stringify(errorBody(code, message, requestId));
  const headers = { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), 'X-Request-Id': requestId, ...options.headers, Connection: 'close' };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${head}\r\n${body}`);
  closeLingering(socket, options.lingerMs);
}
