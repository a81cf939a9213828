import { defineConfig, devices } from '@playwright/test';
import { SMTP_GATEWAY_PORT, SMTP_GATEWAY_TLS_PORT } from './e2e/gateway-ports';
import { E2E_DNS_PORT, E2E_MX_PORT, E2E_WEB_PORT } from './e2e/loopback-ports';

const PORT = E2E_WEB_PORT;
const BASE_URL = `http://localhost:${PORT}`;
/** The loopback DNS server e2e/domains.spec.ts starts; the service resolves only through it. */
const DNS_PORT = E2E_DNS_PORT;
/** e2e/webhooks.spec.ts runs its webhook receiver on loopback, which endpoints may not point at otherwise. */
const WEBHOOK_ALLOW_PRIVATE_CIDRS = '127.0.0.0/8';
/**
 * e2e/broadcasts.spec.ts runs a recipients' MX on loopback: MX delivery goes to this port (not 25)
 * and may reach 127.0.0.0/8. Other specs publish MX hosts without addresses, so nothing of theirs
 * is delivered either way.
 */
const SMTP_MX_PORT = E2E_MX_PORT;

/**
 * End-to-end tests of the dashboard in Debian's Chromium (browser downloads are not available
 * here). The web server is the real service, on a fresh embedded database under .data-e2e.
 */
export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
        },
      },
    },
  ],
  webServer: {
    command: `rm -rf .data-e2e && DATA_DIR=.data-e2e PORT=${PORT} APP_URL=${BASE_URL} DNS_SERVERS=127.0.0.1:${DNS_PORT} WEBHOOK_ALLOW_PRIVATE_CIDRS=${WEBHOOK_ALLOW_PRIVATE_CIDRS} SMTP_MX_PORT=${SMTP_MX_PORT} SMTP_MX_ALLOW_PRIVATE_CIDRS=127.0.0.0/8 MAIL_HOST=mx.eumail.example BOUNCE_SMTP_PORT=0 SMTP_GATEWAY_PORT=${SMTP_GATEWAY_PORT} SMTP_GATEWAY_TLS_PORT=${SMTP_GATEWAY_TLS_PORT} LOG_LEVEL=warn NEXT_TELEMETRY_DISABLED=1 npm start`,
    url: `${BASE_URL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: !process.env.CI,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
