/**
 * The e2e server's SMTP relay gateway (playwright.config.ts): fixed ports, so the API keys page
 * shows them and e2e/emails.spec.ts can relay a message through the STARTTLS one.
 */
export const SMTP_GATEWAY_PORT = 25870;
export const SMTP_GATEWAY_TLS_PORT = 24650;
