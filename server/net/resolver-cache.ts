import type { Resolver } from 'node:dns/promises';
import { createResolver } from './dns';

/**
 * One resolver per list of DNS servers, kept for the life of the process, for the lookups made
 * before each outbound request (webhook deliveries, Domain Connect). A c-ares channel costs its
 * set-up and its sockets; made per delivery it was most of a delivery's DNS time. Few lists are
 * ever used (the operator's DNS_SERVERS, a test's own server): the oldest is let go past a handful.
 */
const MAX_RESOLVERS = 16;
const resolvers = new Map<string, Resolver>();

export function sharedResolver(dnsServers: string[]): Resolver {
  const key = dnsServers.join(',');
  let resolver = resolvers.get(key);
  if (resolver) return resolver;
  if (resolvers.size >= MAX_RESOLVERS) {
    // Not cancelled: lookups still waiting on it finish (or time out) by themselves.
    const oldest = resolvers.keys().next().value as string;
    resolvers.delete(oldest);
  }
  resolver = createResolver(dnsServers);
  resolvers.set(key, resolver);
  return resolver;
}
