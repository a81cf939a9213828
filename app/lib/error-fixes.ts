/**
 * The page that fixes a refusal, by its code: the server's message says what is wrong, the
 * dashboard links where a person puts it right (an application reads the same message and code).
 */
const FIXES: Record<string, { href: string; label: string }> = {
  DOMAIN_NOT_VERIFIED: { href: '/domains', label: 'Open Domains' },
  ALL_SUPPRESSED: { href: '/suppressions', label: 'Open Suppressions' },
};

export const errorFixOf = (code: string | null) => (code ? (FIXES[code] ?? null) : null);
