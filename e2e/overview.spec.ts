import { expect, test, type Page } from '@playwright/test';
import { E2E_DNS_PORT } from './loopback-ports';
import { startDnsServer, type DnsServer } from '../test/support/dns';
import { publishRecords } from '../test/support/domains';
import { domainName, trpcQuery } from './dashboard-api';
import { shot, signUp, uniqueEmail } from './helpers';

/**
 * The overview, the dashboard's home (docs/overview.md): a new person's checklist, unticked; a
 * domain added, its records published and verified, a key created, all from the overview, each
 * step ticking by itself; the first-email snippets with the key's prefix and this server's base
 * URL; a test email sent, and the week's chart and the recent failures showing it.
 */

test.use({ permissions: ['clipboard-read', 'clipboard-write'], viewport: { width: 1440, height: 900 } });

let dns: DnsServer;
test.beforeAll(async () => {
  dns = await startDnsServer({ port: E2E_DNS_PORT });
});
test.afterAll(() => dns?.close());
test.beforeEach(() => {
  dns.clear();
  // The recipients' domain: an MX, so sends pass the deliverability check.
  dns.mx('example.net', 'mx.example.net');
});

const step = (page: Page, id: string) => page.locator(`[data-testid="setup-step"][data-step="${id}"]`);
const SETUP_POLL_TIMEOUT = { timeout: 20_000 };

test('a new person is walked from nothing to a first email, the steps ticking by themselves', async ({ page }) => {
  test.setTimeout(120_000);
  // The home page is behind sign-in too.
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in$/);
  await signUp(page, uniqueEmail('e2e-overview'), { landOn: '/', confirmed: true });
  // The server's APP_URL (playwright.config.ts): what the snippets must call.
  const BASE_URL = new URL(page.url()).origin;

  // Overview is first in the navigation and current.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link').first()).toHaveText('Overview');
  await expect(nav.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');

  // Nothing done: five open steps, the first one open; an empty week, no failures, nothing used.
  const checklist = page.getByTestId('setup-checklist');
  await expect(checklist.getByTestId('setup-progress')).toHaveText('0 of 5 done');
  for (const id of ['domain', 'records', 'verified', 'api_key', 'email']) await expect(step(page, id)).toHaveAttribute('data-done', 'false');
  await expect(page.getByTestId('activity-empty')).toContainText('No email sent in the last 7 days');
  await expect(page.getByTestId('failures-empty')).toBeVisible();
  await expect(page.getByTestId('usage-month')).toHaveText(/^0 of 3,000$/);
  await expect(step(page, 'domain').getByRole('button', { name: 'Add domain' })).toBeVisible();
  await shot(page, 'home-new');

  // 1. A domain, added here: the page stays, the step ticks, the records open below.
  const name = domainName();
  await step(page, 'domain').getByRole('button', { name: 'Add domain' }).click();
  const dialog = page.getByTestId('add-domain-dialog');
  await dialog.getByLabel('Domain', { exact: true }).fill(name);
  await dialog.getByRole('button', { name: 'Add domain' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(`${BASE_URL}/`);
  await expect(step(page, 'domain')).toHaveAttribute('data-done', 'true');
  await expect(step(page, 'domain').getByTestId('setup-step-summary')).toHaveText(`${name} added`);

  // 2. The records step opens by itself, short: which records, where each stands, and one click
  // at a provider that supports it (this server has no Domain Connect configuration: it says so).
  // The records themselves, with copy buttons, open on demand: the page stays short.
  const records = step(page, 'records');
  await expect(records.getByTestId('setup-records')).toContainText(`Add 3 records at the DNS provider of ${name}: DKIM, MX and SPF.`);
  await expect(records.getByTestId('setup-record-statuses').getByRole('listitem')).toHaveCount(4);
  await expect(records.getByTestId('domain-connect-reason')).toContainText('Automatic setup is not available');
  await expect(records.getByTestId('dns-record')).toHaveCount(0);
  const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
  await shot(page, 'home-records-summary');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'home-records-summary-phone');
  await page.setViewportSize({ width: 1440, height: 900 });
  await records.getByRole('button', { name: 'Show the records' }).click();
  await expect(records.getByTestId('dns-record')).toHaveCount(4);
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(pageHeight + 300);
  await expect(records.getByRole('link', { name: 'Open the domain page' })).toHaveAttribute('href', /^\/domains\/[0-9a-f-]{36}$/);
  const domain = (await trpcQuery<{ data: Array<{ id: string; name: string }> }>(page, 'domains.list', {})).data.find((entry) => entry.name === name)!;
  const published = await trpcQuery<{ records: Array<{ record: string; type: string; name: string; value: string; host: string }> }>(page, 'domains.get', { id: domain.id });
  const spf = published.records.find((record) => record.record === 'SPF')!;
  await records.locator('[data-testid="dns-record"][data-record="SPF"]').getByRole('button', { name: 'Copy SPF value' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(spf.value);
  await shot(page, 'home-records');

  // Published at "the provider", then checked on demand from step 3: both steps tick.
  publishRecords(dns, published.records);
  await step(page, 'verified').getByRole('button', { name: /Get the domain verified/ }).click();
  await step(page, 'verified').getByRole('button', { name: 'Verify now' }).click();
  await expect(step(page, 'records')).toHaveAttribute('data-done', 'true', SETUP_POLL_TIMEOUT);
  await expect(step(page, 'verified')).toHaveAttribute('data-done', 'true', SETUP_POLL_TIMEOUT);
  await expect(step(page, 'verified').getByTestId('setup-step-summary')).toHaveText(`${name} is verified`);

  // 4. A test key, created here; its secret is shown once, in the dialog.
  await expect(step(page, 'api_key').getByRole('button', { name: 'Create API key' })).toBeVisible();
  await step(page, 'api_key').getByRole('button', { name: 'Create API key' }).click();
  const keyDialog = page.getByTestId('create-api-key-dialog');
  await keyDialog.getByLabel('Name').fill('First steps');
  await keyDialog.getByLabel('Mode').selectOption({ label: 'Test' });
  await keyDialog.getByRole('button', { name: 'Create key' }).click();
  const secret = await keyDialog.getByTestId('api-key-secret').inputValue();
  expect(secret).toMatch(/^eu_test_/);
  await keyDialog.getByRole('button', { name: 'Done' }).click();
  await expect(step(page, 'api_key')).toHaveAttribute('data-done', 'true', SETUP_POLL_TIMEOUT);
  const prefix = `${secret.slice(0, 12)}...`;

  // 5. The snippets: this server's base URL, the key's prefix, never the secret; copied whole.
  const send = step(page, 'email');
  await expect(send.getByTestId('snippet-key-placeholder')).toHaveText(prefix);
  const curl = send.getByTestId('snippet-curl');
  await expect(curl).toContainText(`curl -X POST '${BASE_URL}/api/emails'`);
  await expect(curl).toContainText(`export EUMAIL_API_KEY='${prefix}'`);
  await expect(curl).toContainText(`"from": "onboarding@${name}"`);
  await expect(curl).not.toContainText(secret);
  await send.getByRole('button', { name: 'Copy cURL snippet' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(prefix);
  expect(copied).toContain(`${BASE_URL}/api/emails`);
  await shot(page, 'home-snippets');
  const desktop = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'home-mobile');
  await page.setViewportSize(desktop);
  await send.getByRole('tab', { name: 'Node.js' }).click();
  const node = send.getByTestId('snippet-node');
  await expect(node).toContainText(`await fetch("${BASE_URL}/api/emails"`);
  await expect(node).toContainText(prefix);
  await expect(node).not.toContainText(secret);

  // The curl snippet as a person runs it, the full key pasted in: a delivered email and a bounce.
  const [header] = copied.split('\n');
  expect(header).toContain(prefix);
  const body = JSON.parse(copied.slice(copied.indexOf("-d '") + 4, copied.lastIndexOf("'")));
  for (const to of [body.to[0], 'bounced@example.net']) {
    dns.mx(to.split('@')[1], 'mx.example.net');
    const response = await page.request.post(`${BASE_URL}/api/emails`, {
      headers: { Authorization: `Bearer ${secret}` },
      data: { ...body, to: [to], ...(to.startsWith('bounced') ? { subject: 'Will bounce' } : { tracking: { opens: true } }) },
    });
    expect(response.status(), await response.text()).toBe(200);
  }

  // Every step done: the checklist folds into one line.
  await expect(page.getByTestId('setup-done')).toContainText('You’re set up', SETUP_POLL_TIMEOUT);
  await expect(page.getByTestId('setup-checklist')).toHaveCount(0);
  // The test email is not live: the live week stays empty and says where it is.
  await expect(page.getByTestId('activity-empty')).toContainText('Test mode');

  // In test mode the week and the failures show it, as its simulated life plays out.
  await page.getByRole('group', { name: 'Data shown' }).getByRole('button', { name: 'Test mode' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(page.getByTestId('total-sent')).toHaveText('2', SETUP_POLL_TIMEOUT);
  await expect(page.getByTestId('total-bounced')).toHaveText('1', { timeout: 40_000 });
  await expect(page.getByTestId('total-delivered')).toHaveText('1', { timeout: 40_000 });
  await expect(page.getByTestId('total-opened')).toHaveText('1', { timeout: 40_000 });
  const today = page.locator('[data-testid="activity-day"]').last();
  await expect(today.locator('[data-series="sent"]')).toHaveAttribute('data-value', '2');
  await expect(page.getByTestId('activity-readout')).toContainText('(today): 2 sent · 1 delivered · 1 bounced · 0 complained · 1 opened');
  const failure = page.getByTestId('failure');
  await expect(failure).toHaveCount(1);
  await expect(failure).toHaveAttribute('data-status', 'bounced');
  await expect(failure.getByTestId('bounce-note')).toHaveAttribute('data-class', 'mailbox_unknown');
  await expect(failure).toContainText('to bounced@example.net');
  await shot(page, 'home-test-mode');

  // The failure leads to the email's page.
  await failure.getByTestId('failure-link').click();
  await expect(page).toHaveURL(/\/emails\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('bounce-note').first()).toBeVisible();

  // "You're set up" can be shown in full again, or dismissed for good in this browser.
  await page.goto('/');
  await page.getByTestId('setup-done').getByRole('button', { name: 'Show steps' }).click();
  await expect(page.getByTestId('setup-progress')).toHaveText('5 of 5 done');
  await page.getByRole('button', { name: 'Hide steps' }).click();
  await page.getByTestId('setup-done').getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByTestId('setup-done')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('activity')).toBeVisible();
  await expect(page.getByTestId('setup-done')).toHaveCount(0);
  await shot(page, 'home-dismissed');
});

test('the overview shows its loading state, then an error with a way to try again', async ({ page }) => {
  await signUp(page, uniqueEmail('e2e-overview-errors'), { landOn: '/api-keys' });
  const overview = /\/api\/trpc\/[^?]*overview\./;
  let fail = true;
  await page.route(overview, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    if (fail) await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify([{ error: { message: 'Boom', code: -32603, data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 } } }]) });
    else await route.continue();
  });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByTestId('setup-loading')).toBeVisible();
  await expect(page.getByTestId('activity-loading')).toBeVisible();
  await shot(page, 'home-loading');
  await expect(page.getByText('Could not load the getting-started steps')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Could not load the last 7 days')).toBeVisible({ timeout: 20_000 });
  await shot(page, 'home-error');
  fail = false;
  await page.getByRole('alert').filter({ hasText: 'getting-started' }).getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('setup-checklist')).toBeVisible();
  await page.unroute(overview);
});
