/**
 * Every loopback port the e2e run uses, moved together by E2E_PORT_OFFSET so that several
 * checkouts can run their e2e suites at once on one machine (each on its own ports).
 */
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0);

/** The web server (playwright.config.ts). */
export const E2E_WEB_PORT = 3100 + offset;
/** The loopback DNS server the e2e server resolves through only (DNS_SERVERS in playwright.config.ts). */
export const E2E_DNS_PORT = 5354 + offset;
/** Where the e2e server delivers MX mail (SMTP_MX_PORT, 127.0.0.0/8 allowed): a spec's SMTP sink. */
export const E2E_MX_PORT = 2526 + offset;
/** e2e/billing-stripe.spec.ts: its own web server with Stripe configured, and the Stripe stand-in it talks to. */
export const E2E_STRIPE_WEB_PORT = 3140 + offset;
export const E2E_STRIPE_API_PORT = 3160 + offset;
/** e2e/sunset.spec.ts: its own web server with the shared test clock on (TEST_CLOCK=on), moved by months. */
export const E2E_SUNSET_WEB_PORT = 3180 + offset;
