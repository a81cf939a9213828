import { Resolver } from 'node:dns/promises';

/** How long a server is given per query, and how many times it is asked, before ETIMEOUT. */
export const RESOLVER_TIMEOUT_MS = 3_000;
export const RESOLVER_TRIES = 2;

/** A fresh resolver on the configured servers (`host[:port]`), so every check reads DNS as it is now. */
export function createResolver(dnsServers: string[]): Resolver {
  const resolver = new Resolver({ timeout: RESOLVER_TIMEOUT_MS, tries: RESOLVER_TRIES });
  if (dnsServers.length > 0) resolver.setServers(dnsServers);
  return resolver;
}

const ABSENT = new Set(['ENODATA', 'ENOTFOUND']);

/** A lookup's answer, or whether the name has no such record (absent) or the DNS could not tell (transient). */
export type Lookup<T> = { kind: 'found'; value: T } | { kind: 'absent' } | { kind: 'transient'; code: string };

export async function lookup<T>(query: () => Promise<T>): Promise<Lookup<T>> {
  try {
    return { kind: 'found', value: await query() };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
    return ABSENT.has(code) ? { kind: 'absent' } : { kind: 'transient', code };
  }
}
