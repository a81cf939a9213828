/**
 * The e2e server's SMTP relay gateway (playwright.config.ts): fixed ports, so the API keys page
 * shows them and e2e/emails.spec.ts can relay a message through the STARTTLS one.
 */
import { E2E_WEB_PORT } from './loopback-ports';

const offset = E2E_WEB_PORT - 3100;
export const SMTP_GATEWAY_PORT = 25870 + offset;
export const SMTP_GATEWAY_TLS_PORT = 24650 + offset;
