// Imports nothing, so the dashboard offers the very host the API's refusal names.

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The host in what someone typed where a domain name belongs, when it is shaped like a web
 * address or an email address ("https://example.com/path", "example.com:8080", "hello@example.com"
 * give example.com); null otherwise, and for an IP address, which is no domain to offer.
 */
export function hostOfTypedAddress(input: string): string | null {
  const trimmed = input.trim();
  if (!/[/:@?#]/.test(trimmed)) return null;
  let host: string;
  try {
    host = new URL(SCHEME.test(trimmed) ? trimmed : `http://${trimmed.replace(/^\/+/, '')}`).hostname;
  } catch {
    return null;
  }
  host = host.replace(/\.$/, '');
  if (!host.includes('.') || host.startsWith('[') || /^[\d.]+$/.test(host)) return null;
  return host;
}
