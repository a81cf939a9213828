import { createResolver, lookup } from '../../../net/dns';

const TTL_MS = 10 * 60_000;
const cache = new Map<string, { deliverable: boolean; until: number }>();

/**
 * Whether mail to the domain can be delivered at all: an MX record, or an address record as the
 * implicit MX (RFC 5321 §5.1). A DNS that cannot tell counts as deliverable: only a clear "no
 * such domain / no mail host" refuses. Answers are kept for ten minutes per DNS configuration.
 */
export async function isDeliverableDomain(domain: string, dnsServers: string[], nowMs: number): Promise<boolean> {
  const key = `${dnsServers.join(',')} ${domain}`;
  const cached = cache.get(key);
  if (cached && cached.until > nowMs) return cached.deliverable;
  const resolver = createResolver(dnsServers);
  const mx = await lookup(() => resolver.resolveMx(domain));
  let deliverable: boolean;
  if (mx.kind === 'found') deliverable = mx.value.some((record) => record.exchange !== '' && record.exchange !== '.');
  else if (mx.kind === 'transient') deliverable = true;
  else {
    const [a, aaaa] = await Promise.all([lookup(() => resolver.resolve4(domain)), lookup(() => resolver.resolve6(domain))]);
    deliverable = a.kind !== 'absent' || aaaa.kind !== 'absent';
  }
  cache.set(key, { deliverable, until: nowMs + TTL_MS });
  return deliverable;
}
