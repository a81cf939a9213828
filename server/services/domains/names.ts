import { domainToASCII } from 'node:url';
import { isIP } from 'node:net';
import { parse } from 'tldts';
import { validationError } from '../../errors';
import { hostOfTypedAddress } from './typed-host';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A sending domain as we store it: lowercase, IDN in punycode, at least one label below a
 * public suffix. Refuses what cannot carry DNS records of its own with a reason a person can fix.
 */
export function normalizeDomainName(input: string): string {
  const trimmed = input.trim().replace(/\.$/, '');
  if (!trimmed) throw validationError('name: must not be empty');
  if (/^\[.*\]$/.test(trimmed) || isIP(trimmed)) throw validationError('name: must be a domain name, not an IP address');
  if (/[\s/@:?#]/.test(trimmed)) {
    const host = hostOfTypedAddress(trimmed);
    throw validationError(`name: "${input}" is not a domain name (no scheme, path, port or address)${host ? `; did you mean ${host}?` : ''}`);
  }
  const ascii = domainToASCII(trimmed.toLowerCase());
  if (!ascii) throw validationError(`name: "${input}" is not a valid domain name`);
  if (ascii.length > 253) throw validationError('name: must be at most 253 characters');
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) {
    throw validationError(`name: "${input}" is not a valid domain name`);
  }
  const parsed = parse(ascii, { allowPrivateDomains: true });
  if (!parsed.domain || (!parsed.isIcann && !parsed.isPrivate)) {
    throw validationError(`name: "${input}" is not under a known public suffix`);
  }
  if (ascii === parsed.publicSuffix) throw validationError(`name: "${input}" is a public suffix; register a domain under it`);
  return ascii;
}

/** A return-path label such as "send" or "bounces.mail". */
export function normalizeReturnPath(input: string): string {
  const value = input.trim().toLowerCase().replace(/\.$/, '');
  const labels = value.split('.');
  if (!value || labels.length > 3 || !labels.every((label) => LABEL.test(label))) {
    throw validationError('return_path: must be one to three DNS labels, e.g. "send"');
  }
  return value;
}
