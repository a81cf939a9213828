import type { Resolver } from 'node:dns/promises';
import { RESOLVER_TIMEOUT_MS, RESOLVER_TRIES } from './dns';
import { sharedResolver } from './resolver-cache';

/**
 * Lookups for outbound requests, through the operator's DNS_SERVERS (empty = the system's). One
 * long-lived resolver per list of servers (resolver-cache.ts) rather than a new one per lookup:
 * every request still asks again and re-checks the addresses it is about to use, so a DNS answer
 * that changes cannot slip past the check (c-ares keeps an answer no longer than its TTL, as any
 * resolver does). The caller's deadline ends the wait for its own lookup; queries of others on
 * the same resolver go on.
 */

interface LookupOptions {
  /** Cancels the queries in flight (the caller's overall deadline). */
  signal?: AbortSignal;
}

// c-ares answers "no such name" and "no record of this type" with these; both mean "none".
const EMPTY_ANSWER = new Set(['ENOTFOUND', 'ENODATA']);

/** What a cancelled c-ares query fails with, so callers tell a deadline from a DNS failure as before. */
const cancelled = (name: string) => Object.assign(new Error(`query ECANCELLED ${name}`), { code: 'ECANCELLED', hostname: name });

/**
 * A fresh c-ares channel gives a silent server its whole timeout on every try; a long-lived one
 * learns how fast the server usually answers and gives up on silence much sooner. Asked again
 * until that whole time has passed, a name that never answers takes as long to fail as it did
 * with a resolver per lookup (and a caller's shorter deadline still ends it first).
 */
const PATIENCE_MS = RESOLVER_TIMEOUT_MS * RESOLVER_TRIES;

async function patiently<T>(query: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  const until = performance.now() + PATIENCE_MS;
  try {
    return await query();
  } catch (error) {
    if (!askAgain(error, signal, until)) throw error;
    return askUntil(query, signal, until, error);
  }
}

const askAgain = (error: unknown, signal: AbortSignal | undefined, until: number) => (error as NodeJS.ErrnoException).code === 'ETIMEOUT' && !signal?.aborted && performance.now() < until;

/** After a first ETIMEOUT (the rare case, so its timer is made only then): again until the time is spent. */
async function askUntil<T>(query: () => Promise<T>, signal: AbortSignal | undefined, until: number, first: unknown): Promise<T> {
  let last = first;
  let timer: NodeJS.Timeout | undefined;
  const spent = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(last), until - performance.now());
  });
  const asking = (async () => {
    for (;;) {
      try {
        return await query();
      } catch (error) {
        last = error;
        if (!askAgain(error, signal, until)) throw error;
      }
    }
  })();
  asking.catch(() => undefined);
  try {
    return await Promise.race([asking, spent]);
  } finally {
    clearTimeout(timer);
  }
}

async function withResolver<T>(dnsServers: string[], name: string, options: LookupOptions, lookup: (ask: <R>(query: (resolver: Resolver) => Promise<R>) => Promise<R>) => Promise<T>): Promise<T> {
  const { signal } = options;
  signal?.throwIfAborted();
  const resolver = sharedResolver(dnsServers);
  const work = lookup((query) => patiently(() => query(resolver), signal));
  if (!signal) return work;
  // The shared resolver is not cancelled (that would fail everyone's queries): this lookup stops
  // waiting, and its queries end by themselves within the resolver's own timeout.
  work.catch(() => undefined);
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(cancelled(name));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
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
  return withResolver(dnsServers, host, options, async (ask) => {
    const [v4, v6] = await Promise.allSettled([orEmpty(ask((resolver) => resolver.resolve4(host))), orEmpty(ask((resolver) => resolver.resolve6(host)))]);
    const addresses = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
    if (addresses.length > 0) return addresses;
    const failure = [v4, v6].find((r) => r.status === 'rejected');
    if (failure) throw failure.reason;
    return [];
  });
}

/** The TXT records of a name, each one's strings joined; [] when there are none. */
export async function resolveTxt(name: string, dnsServers: string[], options: LookupOptions = {}): Promise<string[]> {
  return withResolver(dnsServers, name, options, async (ask) => (await orEmpty(ask((resolver) => resolver.resolveTxt(name)))).map((parts) => parts.join('')));
}
