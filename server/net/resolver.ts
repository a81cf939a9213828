import type { Resolver } from 'node:dns/promises';
import { createResolver } from './dns';

/**
 * Lookups for outbound requests, through the operator's DNS_SERVERS (empty = the system's). A
 * fresh resolver per lookup (createResolver): nothing is cached between two requests, so every
 * request re-resolves and re-checks the addresses it is about to use, and a DNS answer that
 * changes cannot slip past the check. The caller's deadline cancels the queries in flight.
 */

interface LookupOptions {
  /** Cancels the queries in flight (the caller's overall deadline). */
  signal?: AbortSignal;
}

// c-ares answers "no such name" and "no record of this type" with these; both mean "none".
const EMPTY_ANSWER = new Set(['ENOTFOUND', 'ENODATA']);

async function withResolver<T>(dnsServers: string[], options: LookupOptions, lookup: (resolver: Resolver) => Promise<T>): Promise<T> {
  const resolver = createResolver(dnsServers);
  const cancel = () => resolver.cancel();
  options.signal?.throwIfAborted();
  options.signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await lookup(resolver);
  } finally {
    options.signal?.removeEventListener('abort', cancel);
  }
}

const orEmpty = <T>(promise: Promise<T[]>): Promise<T[]> =>
  promise.catch((error: NodeJS.ErrnoException) => {
    if (error.code && EMPTY_ANSWER.has(error.code)) return [];
    throw error;
  });

/**
 * Every A and AAAA address of a host (A first), [] when it has none. A lookup failure other than
 * "no such name/record" (timeout, SERVFAIL) is thrown, unless the other family answered.
 */
export async function resolveHost(host: string, dnsServers: string[], options: LookupOptions = {}): Promise<string[]> {
  return withResolver(dnsServers, options, async (resolver) => {
    const [v4, v6] = await Promise.allSettled([orEmpty(resolver.resolve4(host)), orEmpty(resolver.resolve6(host))]);
    const addresses = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
    if (addresses.length > 0) return addresses;
    const failure = [v4, v6].find((r) => r.status === 'rejected');
    if (failure) throw failure.reason;
    return [];
  });
}

/** The TXT records of a name, each one's strings joined; [] when there are none. */
export async function resolveTxt(name: string, dnsServers: string[], options: LookupOptions = {}): Promise<string[]> {
  return withResolver(dnsServers, options, async (resolver) => (await orEmpty(resolver.resolveTxt(name))).map((parts) => parts.join('')));
}
