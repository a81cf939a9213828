import fs from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { shot, signUp, uniqueEmail } from './helpers';

/**
 * The suppression list end to end: loading and an empty list, one address added and one refused,
 * 1,200 more pasted at once (sent in two batches, an invalid one reported with the server's
 * reason), searched, filtered by reason, paged, exported as CSV with the session, and one removed.
 */

const LIST_REQUEST = /\/api\/trpc\/[^?]*suppressions\.list/;
const BULK = 1_200;
const bulkAddress = (i: number) => `bulk-${String(i).padStart(4, '0')}@example.com`;

const rows = (page: Page) => page.getByTestId('suppression-row');
const row = (page: Page, email: string) => page.locator(`[data-testid="suppression-row"][data-email="${email}"]`);

test('addresses are added one by one and in bulk, searched, filtered, exported and removed', async ({ page, request }) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueEmail('e2e-suppressions'));

  // The first load shows placeholder rows; an empty list is good news, and says how addresses get there.
  await page.route(LIST_REQUEST, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  await page.getByRole('link', { name: /^Suppressions/ }).click();
  await expect(page).toHaveURL(/\/suppressions$/);
  await expect(page.getByTestId('suppression-skeleton').first()).toBeVisible();
  await shot(page, 'suppressions-loading');
  const empty = page.getByTestId('suppressions-empty');
  await expect(empty).toContainText('No suppressed addresses');
  await expect(empty).toContainText('Good news');
  await page.unroute(LIST_REQUEST);
  await expect(page.getByTestId('coming-soon')).toHaveCount(0);
  await expect(page.getByRole('main')).toContainText('email.suppressed');
  await expect(page.getByRole('main')).toContainText('hard bounce or a spam complaint');
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveCount(0);
  await shot(page, 'suppressions-empty');

  // One address: a display name is refused under the field, then the bare address (any case) is listed as manual.
  await empty.getByRole('button', { name: 'Add addresses' }).click();
  const add = page.getByTestId('add-suppressions-dialog');
  await expect(add.getByRole('button', { name: 'Add addresses' })).toBeDisabled();
  await expect(add.getByLabel('Manual')).toBeChecked();
  await add.getByLabel('Addresses').fill('Ada Lovelace <ada@example.com>');
  await add.getByRole('button', { name: 'Add 1 address' }).click();
  await expect(add.getByLabel('Addresses')).toHaveAttribute('aria-invalid', 'true');
  await expect(add.getByTestId('field-error')).toContainText('without a display name');
  await shot(page, 'suppressions-add-invalid', { fullPage: false });
  await add.getByLabel('Addresses').fill('  Ada@Example.com ');
  await expect(add.getByTestId('field-error')).toHaveCount(0);
  await add.getByRole('button', { name: 'Add 1 address' }).click();
  await expect(add).toBeHidden();
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, 'ada@example.com').getByTestId('suppression-reason')).toHaveAttribute('data-reason', 'manual');
  await expect(row(page, 'ada@example.com')).toContainText('just now');

  // Many at once, as unsubscribes: lines and commas, one address listed already, one that is not an address.
  const bulk = Array.from({ length: BULK }, (_, i) => bulkAddress(i + 1));
  const text = ['grace@example.org, linus@example.net', 'not-an-address', 'ADA@example.com', ...bulk].join('\n');
  await page.getByRole('button', { name: 'Add addresses' }).click();
  await add.getByLabel('Addresses').fill(text);
  await add.getByLabel('Unsubscribe').check();
  await expect(add.getByTestId('address-count')).toHaveText('1,204 addresses');
  await shot(page, 'suppressions-add-several', { fullPage: false });
  // Slowed down so that the progress between the two batches can be seen.
  await page.route('**/api/trpc/suppressions.batch**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.continue();
  });
  await add.getByRole('button', { name: 'Add 1,204 addresses' }).click();
  await expect(add.getByRole('button', { name: 'Adding 1,000 of 1,204…' })).toBeVisible();
  const summary = add.getByTestId('add-suppressions-summary');
  await expect(summary).toBeVisible();
  await page.unroute('**/api/trpc/suppressions.batch**');
  await expect(summary).toHaveAttribute('data-complete', 'true');
  await expect(summary.getByTestId('summary-added')).toHaveText('1,202');
  await expect(summary.getByTestId('summary-already')).toHaveText('1');
  await expect(summary.getByTestId('summary-invalid')).toHaveText('1');
  const invalid = summary.getByTestId('invalid-address');
  await expect(invalid).toHaveCount(1);
  await expect(invalid).toHaveAttribute('data-email', 'not-an-address');
  await expect(invalid).toContainText('is not a valid email address');
  await shot(page, 'suppressions-add-summary', { fullPage: false });
  await summary.getByRole('button', { name: 'Done' }).click();
  await expect(add).toBeHidden();

  // Newest first, 50 a page; the address listed before keeps its reason.
  await expect(rows(page)).toHaveCount(50);
  await expect(page.getByTestId('suppressions-shown')).toHaveText('50 addresses shown');
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(rows(page)).toHaveCount(100);
  await expect(page.getByTestId('suppressions-shown')).toHaveText('100 addresses shown');
  await shot(page, 'suppressions-list', { fullPage: false });
  await page.getByTestId('suppressions-footer').scrollIntoViewIfNeeded();
  await shot(page, 'suppressions-list-footer', { fullPage: false });

  // Search: part of the address, any case.
  await page.getByLabel('Search').fill('GRACE');
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, 'grace@example.org').getByTestId('suppression-reason')).toHaveAttribute('data-reason', 'unsubscribe');
  await expect(row(page, 'grace@example.org').getByTestId('suppression-email-link')).toHaveText('—');
  await shot(page, 'suppressions-search');
  await page.getByLabel('Search').fill('bulk-00');
  await expect(rows(page)).toHaveCount(50);
  await expect(page.getByTestId('suppressions-shown')).toHaveText('50 addresses shown');
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(page.getByTestId('suppressions-shown')).toHaveText('99 addresses');
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  await page.getByLabel('Search').fill('');

  // Filter by reason: the one manual entry; no bounce at all.
  await page.getByLabel('Reason').selectOption({ label: 'Manual' });
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, 'ada@example.com')).toBeVisible();
  await shot(page, 'suppressions-filter');
  await page.getByLabel('Reason').selectOption({ label: 'Bounce' });
  await expect(page.getByTestId('suppressions-empty')).toHaveAttribute('data-filtered', 'true');
  await page.getByLabel('Reason').selectOption({ label: 'Unsubscribe' });
  await page.getByLabel('Search').fill('linus');
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, 'linus@example.net')).toBeVisible();
  await page.getByLabel('Search').fill('');
  await page.getByLabel('Reason').selectOption({ label: 'All reasons' });
  // Back to the whole list as it was: both pages loaded.
  await expect(rows(page)).toHaveCount(100);

  // A list that cannot be read says so, and can be tried again.
  await page.route(LIST_REQUEST, (route) => route.abort());
  await page.getByLabel('Search').fill('example.net');
  const failure = page.getByRole('alert').filter({ hasText: 'Could not load the suppression list' });
  await expect(failure).toBeVisible({ timeout: 15_000 });
  await shot(page, 'suppressions-error');
  await page.unroute(LIST_REQUEST);
  await failure.getByRole('button', { name: 'Try again' }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, 'linus@example.net')).toBeVisible();
  await page.getByLabel('Search').fill('');

  // Export: the whole list as CSV, downloaded with the session; without one it is refused.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toBe('suppressions.csv');
  const csv = (await fs.readFile((await download.path())!)).toString('utf8');
  const lines = csv.split('\r\n');
  expect(lines[0]).toBe('email,reason,created_at');
  expect(lines.at(-1)).toBe('');
  expect(lines).toHaveLength(1 + 1 + 1_202 + 1);
  expect(lines.find((line) => line.startsWith('ada@example.com,'))).toMatch(/^ada@example\.com,manual,\d{4}-\d\d-\d\dT/);
  expect(lines.find((line) => line.startsWith('grace@example.org,'))).toMatch(/^grace@example\.org,unsubscribe,/);
  for (const address of ['linus@example.net', bulkAddress(1), bulkAddress(BULK)]) expect(csv).toContain(`\r\n${address},unsubscribe,`);
  expect(csv).not.toContain('not-an-address');
  const anonymous = await request.get('/suppressions/export');
  expect(anonymous.status()).toBe(401);
  expect(await anonymous.json()).toEqual({ error: expect.any(String), code: 'UNAUTHORIZED' });

  // Remove one: the dialog says mail to it will be sent again; cancelled once, then confirmed.
  await page.getByLabel('Search').fill('grace');
  await expect(rows(page)).toHaveCount(1);
  await row(page, 'grace@example.org').getByRole('button', { name: 'Remove grace@example.org' }).click();
  const remove = page.getByTestId('remove-suppression-dialog');
  await expect(remove).toContainText('grace@example.org');
  await expect(remove).toContainText('will be sent again');
  await shot(page, 'suppressions-remove', { fullPage: false });
  await remove.getByRole('button', { name: 'Cancel' }).click();
  await expect(remove).toBeHidden();
  await expect(row(page, 'grace@example.org')).toBeVisible();
  await row(page, 'grace@example.org').getByRole('button', { name: 'Remove grace@example.org' }).click();
  await remove.getByRole('button', { name: 'Remove address' }).click();
  await expect(remove).toBeHidden();
  await expect(row(page, 'grace@example.org')).toHaveCount(0);
  await expect(page.getByTestId('suppressions-empty')).toHaveAttribute('data-filtered', 'true');
  await page.getByLabel('Search').fill('');
  await expect(rows(page)).toHaveCount(100);
  await expect(row(page, 'grace@example.org')).toHaveCount(0);
  await shot(page, 'suppressions-after-remove', { fullPage: false });
});

test('entries from delivery reports show their reason and link to the email that caused them', async ({ page }) => {
  await signUp(page, uniqueEmail('e2e-suppressions-reports'));
  // Bounces and complaints are recorded from live delivery reports, which this browser test cannot
  // produce: the list's answer is rewritten to hold one of each, as the service would list them.
  const bounceEmailId = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
  const complaintEmailId = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';
  const entries = [
    { id: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4b02', email: 'gone@example.com', reason: 'bounce', createdAt: new Date(Date.now() - 2 * 3_600_000).toISOString(), emailId: bounceEmailId },
    { id: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4b01', email: 'annoyed@example.org', reason: 'complaint', createdAt: new Date(Date.now() - 3 * 86_400_000).toISOString(), emailId: complaintEmailId },
  ];
  await page.route(LIST_REQUEST, async (route) => {
    const response = await route.fetch();
    const operations = new URL(route.request().url()).pathname.split('/').pop()!.split(',');
    const body = await response.json();
    body[operations.indexOf('suppressions.list')].result.data = { data: entries, nextCursor: null };
    await route.fulfill({ response, json: body });
  });
  await page.goto('/suppressions');

  const bounce = row(page, 'gone@example.com');
  await expect(bounce.getByTestId('suppression-reason')).toHaveAttribute('data-reason', 'bounce');
  await expect(bounce.getByTestId('suppression-reason')).toHaveText('Bounce');
  await expect(bounce.getByRole('link', { name: 'View email' })).toHaveAttribute('href', `/emails/${bounceEmailId}`);
  await expect(bounce).toContainText('2 hours ago');
  const complaint = row(page, 'annoyed@example.org');
  await expect(complaint.getByTestId('suppression-reason')).toHaveText('Complaint');
  await expect(complaint.getByRole('link', { name: 'View email' })).toHaveAttribute('href', `/emails/${complaintEmailId}`);
  await expect(complaint).toContainText('3 days ago');
  await shot(page, 'suppressions-reports');

  // Removing one that bounced warns that sending to it again risks another bounce.
  await bounce.getByRole('button', { name: 'Remove gone@example.com' }).click();
  const remove = page.getByTestId('remove-suppression-dialog');
  await expect(remove).toContainText('will be sent again');
  await expect(remove).toContainText('hard bounce or a spam complaint');
  await shot(page, 'suppressions-remove-bounce', { fullPage: false });
  await remove.getByRole('button', { name: 'Cancel' }).click();
  await expect(remove).toBeHidden();
});
