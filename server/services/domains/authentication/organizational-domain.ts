import { getDomain } from 'tldts';

/**
 * The organizational domain of a name (RFC 7489 §3.2): one label below its public suffix, private
 * suffixes counted as registration counts them (domains/names.ts), so `news.acme.eu` → `acme.eu`.
 */
export const organizationalDomain = (name: string): string => getDomain(name, { allowPrivateDomains: true }) ?? name;
