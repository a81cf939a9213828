import { expect, test, type Page } from '@playwright/test';
import { E2E_DNS_PORT } from './loopback-ports';
import { startDnsServer, type DnsServer } from '../test/support/dns';
import { publishRecords } from '../test/support/domains';
import { shot, signUp, uniqueEmail } from './helpers';

test.use({ permissions: ['clipboard-read', 'clipboard-write'], viewport: { width: 1440, height: 900 } });

const PHONE = { width: 390, height: 844 };

/**
 * The web server resolves through DNS_SERVERS=127.0.0.1:E2E_DNS_PORT (playwright.config.ts): this real
 * DNS server on loopback, which the test fills with the records a customer would publish. No
 * query ever leaves the machine.
 */
let dns: DnsServer;

test.beforeAll(async () => {
  dns = await startDnsServer({ port: E2E_DNS_PORT });
});

test.afterAll(() => dns?.close());

test.beforeEach(() => dns.clear());

/** A name under a real public suffix that nobody owns here: the loopback DNS answers for it. */
const domainName = () => `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.example.com`;

interface ApiRecord {
  record: string;
  type: string;
  host: string;
  name: string;
  value: string;
  parts?: string[];
  priority?: number;
}

/** The domain as the dashboard's own API returns it (the page's session cookie authenticates). */
async function fetchDomain(page: Page, id: string): Promise<{ name: string; records: ApiRecord[]; openTracking: boolean; clickTracking: boolean }> {
  const response = await page.request.get(`/api/trpc/domains.get?input=${encodeURIComponent(JSON.stringify({ id }))}`);
  expect(response.status()).toBe(200);
  return (await response.json()).result.data;
}

async function openDomains(page: Page) {
  await page.getByRole('link', { name: /^Domains/ }).click();
  await expect(page).toHaveURL(/\/domains$/);
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
}

/** Adds a domain through the dialog; lands on its page and returns its id. */
async function addDomain(page: Page, name: string): Promise<string> {
  await page.getByRole('button', { name: 'Add domain' }).first().click();
  const dialog = page.getByTestId('add-domain-dialog');
  await dialog.getByLabel('Domain', { exact: true }).fill(name);
  await dialog.getByRole('button', { name: 'Add domain' }).click();
  await expect(page).toHaveURL(/\/domains\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  return page.url().split('/').pop()!;
}

const recordRow = (page: Page, kind: string) => page.locator(`[data-testid="dns-record"][data-record="${kind}"]`);

test('a domain is added, its records published, and it turns verified without a reload', async ({ page }) => {
  await signUp(page, uniqueEmail('e2e-domains'));
  await openDomains(page);
  await expect(page.getByTestId('domains-empty')).toContainText('No domains yet');
  await expect(page.getByTestId('coming-soon')).toHaveCount(0);
  await shot(page, 'list-empty');

  const name = domainName();
  const id = await addDomain(page, name);

  // A new domain is pending, and the server is polling its DNS.
  const detail = page.getByTestId('domain-detail');
  await expect(detail.getByTestId('domain-status').first()).toHaveText('Pending');

  // Four records: DKIM, the return path's MX and SPF, and DMARC (recommended only).
  await expect(page.getByTestId('dns-record')).toHaveCount(4);
  await expect(recordRow(page, 'DMARC')).toContainText('Recommended');
  await expect(recordRow(page, 'DKIM')).not.toContainText('Recommended');
  await expect(recordRow(page, 'MX')).toContainText('mx.eumail.example');
  await expect(recordRow(page, 'MX').getByTestId('record-host')).toHaveText('send');
  await expect(recordRow(page, 'SPF')).toContainText('v=spf1 include:mx.eumail.example ~all');
  // This service has no Domain Connect configuration: the page says so, quietly.
  await expect(page.getByTestId('domain-connect-reason')).toContainText('Automatic setup is not available');

  await shot(page, 'detail-pending');

  // The DKIM value is long: shown clamped, but Copy copies all of it.
  const { records } = await fetchDomain(page, id);
  const dkim = records.find((record) => record.record === 'DKIM')!;
  expect(dkim.value.length).toBeGreaterThan(255);
  await expect(recordRow(page, 'DKIM').getByTestId('record-host')).toHaveText(dkim.host);
  await recordRow(page, 'DKIM').getByRole('button', { name: 'Copy DKIM value' }).click();
  await expect(recordRow(page, 'DKIM').getByRole('button', { name: 'Copied DKIM value' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(dkim.value);
  await recordRow(page, 'DKIM').getByRole('button', { name: 'Copy DKIM host' }).click();
  await expect(recordRow(page, 'DKIM').getByRole('button', { name: 'Copied DKIM host' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(dkim.host);

  // The split strings for providers that need them, on demand.
  await recordRow(page, 'DKIM').getByRole('button', { name: 'Show full value' }).click();
  await expect(recordRow(page, 'DKIM').getByTestId('record-parts')).toBeVisible();
  await shot(page, 'detail-pending-dkim-expanded');
  await recordRow(page, 'DKIM').getByRole('button', { name: 'Show less' }).click();

  // Publish them as the customer would, then ask for a check now.
  publishRecords(dns, records);
  await page.getByRole('button', { name: 'Verify now' }).click();
  await expect(page.getByTestId('verify-feedback')).toHaveText('Checking DNS now');

  // The page refetches while the server polls: the status flips on its own.
  await expect(detail.getByTestId('domain-status').first()).toHaveText('Verified', { timeout: 20_000 });
  await expect(detail.getByTestId('missing-records')).toHaveCount(0);
  for (const kind of ['DKIM', 'MX', 'SPF', 'DMARC']) {
    await expect(recordRow(page, kind).getByTestId('record-status')).toHaveText('Verified');
  }
  await expect(page.getByTestId('check-times')).toContainText('Last checked: just now');
  await expect(page.getByTestId('domain-facts')).not.toContainText('Not yet');
  await expect(page.getByTestId('failure-reason')).toHaveCount(0);
  await shot(page, 'detail-verified');

  // The list agrees.
  await page.getByRole('link', { name: 'Domains', exact: true }).first().click();
  await expect(page).toHaveURL(/\/domains$/);
  const row = page.getByTestId('domain-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(name);
  await expect(row.getByTestId('domain-status')).toHaveText('Verified');
  await expect(row.getByTestId('check-summary')).toHaveCount(0);
  await shot(page, 'list-with-domain');
});

test('a refused name is explained under its field, a web address offers its host, and the new domain says what its checks found', async ({ page }) => {
  await signUp(page, uniqueEmail('e2e-domains'));
  await openDomains(page);

  await page.getByRole('button', { name: 'Add domain' }).first().click();
  const dialog = page.getByTestId('add-domain-dialog');
  const nameField = dialog.getByLabel('Domain', { exact: true });
  await nameField.fill('com');
  await dialog.getByRole('button', { name: 'Add domain' }).click();
  await expect(dialog.getByTestId('field-error')).toHaveText('"com" is not a valid domain name');
  await expect(nameField).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await expect(page).toHaveURL(/\/domains$/);

  // The advanced settings are validated too, the complaint under the field it is about.
  const name = domainName();
  await nameField.fill(name);
  await dialog.getByText('Advanced settings').click();
  await expect(dialog.getByLabel('Return-path subdomain')).toHaveValue('send');
  await dialog.getByLabel('Return-path subdomain').fill('not valid');
  await dialog.getByRole('button', { name: 'Add domain' }).click();
  await expect(dialog.getByTestId('field-error')).toContainText('must be one to three DNS labels');
  await expect(dialog.getByLabel('Return-path subdomain')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Return-path subdomain').fill('send');

  // A web address pasted from the browser: refused under the field, its host one click away.
  await nameField.fill(`https://${name}/pricing`);
  await dialog.getByRole('button', { name: 'Add domain' }).click();
  await expect(dialog.getByTestId('field-error')).toContainText(`"https://${name}/pricing" is not a domain name`);
  await shot(page, 'add-dialog-web-address', { fullPage: false });
  await dialog.getByRole('button', { name: `Use ${name}` }).click();
  await expect(nameField).toHaveValue(name);
  await expect(dialog.getByTestId('field-error')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();

  // No spinner that never ends: the first check has read the DNS, which has none of the records
  // yet; the page says so, and when it looks again.
  const checkTimes = page.getByTestId('check-times');
  await expect(checkTimes.getByTestId('missing-records')).toHaveText('(DKIM, MX and SPF missing)', { timeout: 20_000 });
  await expect(checkTimes).toContainText(/Next check: in (less than a minute|1 minute)/);
  await expect(page.getByText('Checking DNS…')).toHaveCount(0);
  await shot(page, 'detail-missing-records');
  await page.goto('/domains');
  const summary = page.getByTestId('domain-row').getByTestId('check-summary');
  await expect(summary).toContainText(/^Next check in (less than a minute|1 minute) · DKIM, MX and SPF missing$/);
  await shot(page, 'list-check-summary');
  await page.setViewportSize(PHONE);
  await shot(page, 'list-check-summary-phone');
});

test('open and click tracking are switched on a domain’s page and stay switched; test mode says why it cannot', async ({ page }) => {
  await signUp(page, uniqueEmail('e2e-domains'));
  await openDomains(page);
  const id = await addDomain(page, domainName());

  const tracking = page.getByTestId('domain-tracking');
  const opens = tracking.getByRole('switch', { name: 'Open tracking' });
  const clicks = tracking.getByRole('switch', { name: 'Click tracking' });
  await expect(opens).toHaveAttribute('aria-checked', 'false');
  await expect(clicks).toHaveAttribute('aria-checked', 'false');
  await opens.click();
  await expect(opens).toHaveAttribute('aria-checked', 'true');
  await expect(tracking.locator('[data-setting="openTracking"]').getByTestId('tracking-state')).toHaveText('On');
  await expect(clicks).toBeEnabled();
  await clicks.click();
  await expect(clicks).toHaveAttribute('aria-checked', 'true');
  await expect(opens).toBeEnabled();
  await page.getByTestId('domain-tracking').scrollIntoViewIfNeeded();
  await shot(page, 'detail-tracking');
  await page.setViewportSize(PHONE);
  await shot(page, 'detail-tracking-phone');
  await page.setViewportSize({ width: 1440, height: 900 });

  // Saved on the server: a reload shows them on, and so does the API.
  await page.reload();
  await expect(opens).toHaveAttribute('aria-checked', 'true');
  await expect(clicks).toHaveAttribute('aria-checked', 'true');
  expect(await fetchDomain(page, id)).toMatchObject({ openTracking: true, clickTracking: true });
  await opens.click();
  await expect(opens).toHaveAttribute('aria-checked', 'false');
  await expect.poll(async () => (await fetchDomain(page, id)).openTracking).toBe(false);

  // Domains are live state: in test mode the switches are off limits, and say why.
  await page.getByRole('group', { name: 'Data shown' }).getByRole('button', { name: 'Test mode' }).click();
  await expect(page.getByRole('group', { name: 'Data shown' }).getByRole('button', { name: 'Test mode' })).toHaveAttribute('aria-pressed', 'true');
  await expect(clicks).toBeDisabled();
  await expect(tracking).toContainText('switch to Live to change tracking');
  await page.getByRole('group', { name: 'Data shown' }).getByRole('button', { name: 'Live' }).click();
  await expect(clicks).toBeEnabled();
});

test('a domain is deleted after typing its name, and the Free plan allows one', async ({ page }) => {
  // A DNS provider that supports Domain Connect (the server's answer, stubbed: no provider runs here).
  const applyUrl = 'https://dnsprovider.example.net/v2/domainTemplates/providers/eumail.example/services/sending/apply?domain=example.com&sig=abc';
  await page.route(/\/api\/trpc\/domains\.domainConnect\?/, (route) =>
    route.fulfill({ json: { result: { data: { supported: true, providerId: 'dnsprovider.example.net', providerName: 'Example DNS', applyUrl } } } }),
  );
  await signUp(page, uniqueEmail('e2e-domains'));
  await openDomains(page);
  const name = domainName();
  await addDomain(page, name);

  // The Free plan's cap: a second domain is not offered, and the button says why.
  await page.goto('/domains');
  await expect(page.getByTestId('domain-row')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Add domain' })).toBeDisabled();
  await expect(page.getByTestId('cap-note')).toHaveText('1 of 1 domain on the Free plan. Upgrade for more');

  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const setUp = page.getByRole('link', { name: 'Set up automatically with Example DNS' });
  await expect(setUp).toHaveAttribute('href', applyUrl);
  await expect(setUp).toHaveAttribute('target', '_blank');
  await shot(page, 'detail-domain-connect');

  // Cancelling keeps it.
  await page.getByRole('button', { name: 'Delete domain' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete domain' });
  await expect(confirm).toContainText(name);
  await expect(confirm).toContainText('API keys restricted to this domain are revoked');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();

  // The name must be typed exactly.
  await page.getByRole('button', { name: 'Delete domain' }).click();
  const submit = confirm.getByRole('button', { name: 'Delete domain' });
  await expect(submit).toBeDisabled();
  await confirm.getByLabel(`Type ${name} to confirm`).fill('example.com');
  await expect(submit).toBeDisabled();
  await confirm.getByLabel(`Type ${name} to confirm`).fill(name);
  await expect(submit).toBeEnabled();
  await shot(page, 'delete-confirmation', { fullPage: false });
  await submit.click();

  await expect(page).toHaveURL(/\/domains$/);
  await expect(page.getByTestId('domains-empty')).toBeVisible();
  const list = await page.request.get('/api/trpc/domains.list?input=%7B%7D');
  // Only the shared sandbox is left: it belongs to the service, not to the organization (docs/domains.md).
  const left = (await list.json()).result.data.data as Array<{ name: string; sandbox: boolean }>;
  expect(left.map((domain) => [domain.name, domain.sandbox])).toEqual([['sandbox.localhost', true]]);
});
