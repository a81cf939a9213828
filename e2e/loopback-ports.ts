/** The loopback DNS server the e2e server resolves through only (DNS_SERVERS in playwright.config.ts). */
export const E2E_DNS_PORT = 5354;
/** Where the e2e server delivers MX mail (SMTP_MX_PORT, 127.0.0.0/8 allowed): a spec's SMTP sink. */
export const E2E_MX_PORT = 2526;
