import type { Socket } from 'node:net';

/** How long a closing connection waits for the client to stop sending once it has gone quiet, and at most in all. */
export const LINGER_IDLE_MS = 2_000;
export const LINGER_MAX_MS = 10_000;

const lingering = new WeakSet<Socket>();

/** True once the connection's last answer has gone out: whatever else arrives on it is read and dropped, never answered. */
export const isLingering = (socket: Socket): boolean => lingering.has(socket);

/**
 * Ends a connection without losing the answer just written to it. Closing a socket while the
 * client's bytes are still arriving (the rest of a refused body) makes the kernel send a reset,
 * and a client that is still writing then loses the answer with its connection (EPIPE). So the
 * write side is ended (the client sees the answer, then end of stream), what it still sends is
 * read and dropped, and the socket is destroyed when the client closes its side, goes quiet for
 * LINGER_IDLE_MS, or `maxMs` has passed, whichever comes first.
 */
export function closeLingering(socket: Socket, maxMs: number = LINGER_MAX_MS): void {
  if (socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  // Both sides over: nothing left to wait for (an allowHalfOpen socket does not do this by itself).
  socket.once('end', () => socket.destroy());
  socket.on('data', () => {});
  socket.resume();
  socket.setTimeout(LINGER_IDLE_MS, () => socket.destroy());
  const cap = setTimeout(() => socket.destroy(), maxMs);
  cap.unref();
  socket.once('close', () => clearTimeout(cap));
  socket.end();
}

/** Node closes a connection after a `Connection: close` answer with `destroySoon`; this one lingers instead. */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => closeLingering(socket);
}
