import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import { isAllowedPrivate } from '../net/ip-policy';

/**
 * The address of whoever made the request. The socket's peer, unless that peer is one of the
 * operator's proxies (`TRUSTED_PROXY_CIDRS`): then X-Forwarded-For is read from the right, past
 * every trusted hop, to the first address a trusted proxy saw. Entries left of that are what the
 * client claimed and are never believed, so nobody can choose the address recorded for them.
 */
export function clientAddress(req: IncomingMessage, trustedProxies: string[]): string | null {
  const peer = req.socket.remoteAddress ?? null;
  if (!peer || trustedProxies.length === 0 || !isAllowedPrivate(peer, trustedProxies)) return peer;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = hops[index]!;
    if (net.isIP(hop) === 0) return peer;
    if (!isAllowedPrivate(hop, trustedProxies)) return hop;
  }
  return hops[0] ?? peer;
}

