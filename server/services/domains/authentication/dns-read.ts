import { createResolver, lookup } from '../../../net/dns';
import type { TxtAnswer } from './dns-answer';

/**
 * The TXT records at these names, read now through the configured DNS servers (DNS_SERVERS, as
 * domain verification reads them) with a fresh resolver, so the answer is the DNS as it is. A
 * name given twice is asked once.
 */
export async function readTxt<K extends string>(dnsServers: string[], names: Record<K, string>): Promise<Record<K, TxtAnswer>> {
  const resolver = createResolver(dnsServers);
  const asked = new Map<string, Promise<TxtAnswer>>();
  const ask = (name: string) => {
    let answer = asked.get(name);
    if (!answer) asked.set(name, (answer = lookup(() => resolver.resolveTxt(name))));
    return answer;
  };
  const entries = await Promise.all((Object.entries(names) as Array<[K, string]>).map(async ([key, name]) => [key, await ask(name)] as const));
  return Object.fromEntries(entries) as Record<K, TxtAnswer>;
}
