/**
 * Display names that impersonate a well-known brand are the classic phishing trick. A display
 * name naming one of these is only allowed from a domain that carries the brand's name.
 */
const BRANDS = [
  'paypal', 'apple', 'icloud', 'microsoft', 'outlook', 'office365', 'google', 'gmail', 'amazon', 'netflix', 'facebook',
  'instagram', 'whatsapp', 'linkedin', 'dhl', 'fedex', 'ups', 'docusign', 'dropbox', 'stripe', 'revolut', 'n26', 'ing',
  'santander', 'bnp', 'deutsche bank', 'sparkasse', 'coinbase', 'binance', 'adobe', 'spotify', 'steam', 'ebay',
];

const squash = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The brand a display name claims that the sending domain has no relation to, or null. */
export function impersonatedBrand(displayName: string | null, domain: string): string | null {
  if (!displayName) return null;
  const words = ` ${displayName.toLowerCase().replace(/[^a-z0-9]+/g, ' ')} `;
  const host = squash(domain);
  for (const brand of BRANDS) {
    if (words.includes(` ${brand} `) && !host.includes(squash(brand))) return brand;
  }
  return null;
}
