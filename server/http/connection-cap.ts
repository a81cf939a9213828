import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { EdgeLimits } from '../config';
import { isAllowedPrivate, isLoopbackAddress } from '../net/ip-policy';
import { addressBucketKey } from '../services/sign-in/throttle';
import { refuseOnSocket } from './raw-refusal';

/** How long a client over the cap is told to wait: about the time its other requests take to finish. */
const RETRY_AFTER_S = 1;

/**
 * At most `maxConnectionsPerAddress` open connections per client address (an IPv6 client by its
 * /64, as the sign-in throttle counts it), so one client cannot hold every socket the process
 * has. Counted on the socket's peer: behind a proxy (TRUSTED_PROXY_CIDRS) every connection comes
 * from the proxy, which is exempt, as is loopback unless `capLoopback` (benchmarks, a local
 * proxy). One over the cap is answered 429 RATE_LIMITED at once, before it sends anything, and closed.
 */
export function capConnectionsPerAddress(server: Server, limits: EdgeLimits, trustedProxyCidrs: string[]): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address) return;
    if (!limits.capLoopback && isLoopbackAddress(address)) return;
    if (isAllowedPrivate(address, trustedProxyCidrs)) return;
    const key = addressBucketKey(address);
    const count = (open.get(key) ?? 0) + 1;
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
    if (count > limits.maxConnectionsPerAddress) {
      refuseOnSocket(socket, 'RATE_LIMITED', `More than ${limits.maxConnectionsPerAddress} open connections from your address; close some and retry`, {
        headers: { 'Retry-After': String(RETRY_AFTER_S) },
        lingerMs: 1_000,
      });
    }
  });
}
