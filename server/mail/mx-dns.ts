import type { Resolver } from 'node:dns/promises';
import { createResolver, lookup, type Lookup } from '../net/dns';

// A minute whatever the TTL: mail routing changes rarely, and an answer with TTL 0 would otherwise
// cost three queries per email. Failures to answer are not kept: the next email asks again.
const KEEP_MS = 60_000;
const MAX_ANSWERS = 10_000;

const resolvers = new Map<string, Resolver>();
const answers = new Map<string, { expires: number; answer: Promise<Lookup<unknown>> }>();

function resolverFor(dnsServers: string[]): Resolver {
  const key = dnsServers.join(',');
  let resolver = resolvers.get(key);
  if (!resolver) {
    resolver = createResolver(dnsServers);
    resolvers.set(key, resolver);
  }
  return resolver;
}

/**
 * A lookup through DNS_SERVERS, answered from memory for a minute. Emails to one domain asking at
 * the same moment share one query.
 */
export function cachedLookup<T>(dnsServers: string[], type: 'MX' | 'A' | 'AAAA', name: string, query: (resolver: Resolver) => Promise<T>): Promise<Lookup<T>> {
  const key = `${dnsServers.join(',')} ${type} ${name}`;
  const now = performance.now();
  const kept = answers.get(key);
  if (kept && kept.expires > now) return kept.answer as Promise<Lookup<T>>;
  const answer = lookup(() => query(resolverFor(dnsServers)));
  const entry = { expires: now + KEEP_MS, answer };
  answers.delete(key);
  if (answers.size >= MAX_ANSWERS) answers.delete(answers.keys().next().value!);
  answers.set(key, entry);
  void answer.then((found) => {
    if (found.kind === 'transient' && answers.get(key) === entry) answers.delete(key);
  });
  return answer;
}

/** Forgets every kept answer (between tests). */
export function clearMxDns(): void {
  answers.clear();
}
