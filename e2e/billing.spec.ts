import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_DNS_PORT } from './loopback-ports';
import { startDnsServer, type DnsServer } from '../test/support/dns';
import { formatDate, formatDateTime } from '../app/lib/format';
import { createApiKey, setPlan, shot, signUp, uniqueEmail } from './helpers';
import { domainName, trpcMutation, verifiedDomain } from './dashboard-api';

/**
 * The usage and billing page: a new organization on Free (its ceiling and why, no days yet,
 * overage unavailable), then on a paid volume (overage switched on and kept), live sending in the
 * chart and the sidebar, and plan changes (a downgrade waits for the next UTC month, an upgrade
 * quotes its prorated charge). Live sends need a verified domain and a recipient domain with an
 * MX, published on the loopback DNS server the web server resolves through (as in emails.spec.ts).
 */
let dns: DnsServer;

test.beforeAll(async () => {
  dns = await startDnsServer({ port: E2E_DNS_PORT });
});

test.afterAll(() => dns?.close());

test.beforeEach(() => {
  dns.clear();
  dns.mx('example.net', 'mx.example.net');
});

async function post(request: APIRequestContext, key: string, path: string, body: unknown) {
  const response = await request.post(path, { headers: { Authorization: `Bearer ${key}` }, data: body });
  expect(response.status(), await response.text()).toBe(200);
}

const overageSwitch = (page: Page) => page.getByRole('switch', { name: 'Metered overage' });

async function openBilling(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage and billing' }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Usage and billing' })).toBeVisible();
  await expect(page.getByTestId('billing')).toBeVisible();
}

test('a new organization on Free, then on a paid volume with metered overage switched on', async ({ page }) => {
  await signUp(page, uniqueEmail('billing'));
  await expect(page.getByTestId('sidebar-usage')).toHaveText(/Free plan.*0 \/ 3,000 this month/);
  await openBilling(page);

  await expect(page.getByTestId('current-plan')).toHaveText('Free');
  await expect(page.getByTestId('month-emails')).toHaveText('0');
  await expect(page.getByTestId('month-quota')).toHaveText('3,000');
  await expect(page.getByTestId('today-ceiling')).toHaveText('100');
  await expect(page.getByTestId('ceiling-reason')).toHaveText('Free plan: 100 recipients a day.');
  await expect(page.getByTestId('ceiling-changes-at')).toHaveCount(0);
  await expect(page.getByTestId('usage-chart-empty')).toContainText('No live email this month yet');
  await expect(page.getByTestId('review-remaining')).toHaveText('500');

  await expect(overageSwitch(page)).toBeDisabled();
  await expect(overageSwitch(page)).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByTestId('overage-unavailable')).toContainText('Not available on the Free plan');

  await expect(page.getByTestId('cap-domains-value')).toHaveText('0 of 1');
  await expect(page.getByTestId('cap-webhooks-value')).toHaveText('0 of 1');
  await expect(page.getByTestId('cap-contacts-value')).toHaveText('0 of 1,000');
  await expect(page.getByTestId('cap-api-keys-value')).toHaveText('0 of 1');
  await expect(page.getByTestId('cap-domains-meter')).toBeVisible();

  const freeRow = page.getByTestId('plan-row').and(page.locator('[data-plan="free"]'));
  await expect(freeRow).toHaveAttribute('data-current', 'true');
  await expect(freeRow).toContainText('Current');
  await expect(page.getByTestId('plan-row')).toHaveCount(9);
  await shot(page, 'billing-free');

  await setPlan(page, '10k');
  await page.reload();
  await expect(page.getByTestId('current-plan')).toHaveText('Production 10k');
  await expect(page.getByTestId('sidebar-usage')).toHaveText(/Production 10k plan.*0 \/ 10,000 this month/);
  // Paid, the organization starts in the new-account pool, which ends by time at the latest.
  await expect(page.getByTestId('today-ceiling')).toHaveText('1,000');
  await expect(page.getByTestId('ceiling-reason')).toContainText('New-account pool');
  await expect(page.getByTestId('ceiling-changes-at')).toContainText('UTC');
  await expect(page.getByTestId('cap-domains-value')).toHaveText('0 of 3');
  await expect(page.getByTestId('cap-api-keys-value')).toHaveText('0 · unlimited');

  await expect(overageSwitch(page)).toBeEnabled();
  await expect(overageSwitch(page)).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByTestId('overage-stops-at')).toHaveText('10,000 emails');
  await expect(page.getByTestId('overage-cost')).toHaveText('€0.00');
  await overageSwitch(page).click();
  await expect(overageSwitch(page)).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('overage-state')).toHaveText('On');
  // The stop moves past the quota: the overage budget (the price difference to 25k) at €0.45 per 1,000.
  await expect(page.getByTestId('overage-stops-at')).not.toHaveText('10,000 emails');

  await page.reload();
  await expect(overageSwitch(page)).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('overage-state')).toHaveText('On');
  await expect(page.getByTestId('overage-emails')).toHaveText('0 emails');
  await shot(page, 'billing-10k-overage-on');

  await overageSwitch(page).click();
  await expect(overageSwitch(page)).toHaveAttribute('aria-checked', 'false');
  await page.reload();
  await expect(overageSwitch(page)).toHaveAttribute('aria-checked', 'false');
});

test('live sending shows in the chart, the cards and the sidebar', async ({ page, request }) => {
  await signUp(page, uniqueEmail('billing-send'), { confirmed: true });
  const domain = await verifiedDomain(page, dns);
  const key = await createApiKey(page, 'Production');
  const from = `Acme <hello@${domain}>`;
  // 1 + 3 recipients transactional, then a list-shaped batch: ten items of one message.
  await post(request, key, '/api/emails', { from, to: 'ada@example.net', subject: 'Receipt', text: 'Thanks.' });
  await post(request, key, '/api/emails', { from, to: ['alan@example.net', 'grace@example.net'], cc: 'edsger@example.net', subject: 'Minutes', text: 'Attached.' });
  const batch = Array.from({ length: 10 }, (_, index) => ({ from, to: `reader${index}@example.net`, subject: 'Our news', text: 'This month.' }));
  await post(request, key, '/api/emails/batch', batch);

  await openBilling(page);
  await expect(page.getByTestId('month-emails')).toHaveText('14');
  await expect(page.getByTestId('today-recipients')).toHaveText('14');
  await expect(page.getByTestId('review-used')).toHaveText('10');
  await expect(page.getByTestId('review-remaining')).toHaveText('490');
  await expect(page.getByTestId('sidebar-usage')).toHaveText(/Free plan.*14 \/ 3,000 this month/);

  await expect(page.getByTestId('usage-chart-empty')).toHaveCount(0);
  await expect(page.getByTestId('running-total-chart')).toBeVisible();
  await expect(page.getByTestId('outcome-chart')).toBeVisible();
  await expect(page.getByTestId('day-readout')).toContainText('(today)');
  await expect(page.getByTestId('day-readout')).toContainText('14 recipients accepted');
  await expect(page.getByTestId('cap-domains-value')).toHaveText('1 of 1');
  await expect(page.getByTestId('cap-domains-meter')).toHaveAttribute('data-tone', 'full');
  await shot(page, 'billing-sent');

  await page.getByText('Show the numbers by day').click();
  await expect(page.getByRole('table', { name: 'This month by day' }).getByRole('row', { name: /today/ })).toContainText('14');
});

test('plan changes: a downgrade waits for the next month and can be cancelled, an upgrade is a request the operator grants', async ({ page }) => {
  await signUp(page, uniqueEmail('billing-plans'));
  await setPlan(page, '50k');
  await openBilling(page);
  await expect(page.getByTestId('current-plan')).toHaveText('Production 50k');
  const now = new Date();
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
  const planRow = (plan: string) => page.getByTestId('plan-row').and(page.locator(`[data-plan="${plan}"]`));
  const dialog = page.getByTestId('change-plan-dialog');

  // Down: scheduled for the first instant of next month (UTC), the plan unchanged until then.
  await planRow('10k').getByRole('button', { name: 'Downgrade to Production 10k' }).click();
  await expect(dialog.getByRole('heading', { name: 'Downgrade to Production 10k?' })).toBeVisible();
  await expect(dialog.getByTestId('downgrade-effective-at')).toHaveText(formatDateTime(nextMonth));
  await shot(page, 'billing-downgrade-dialog', { fullPage: false });
  await dialog.getByRole('button', { name: 'Schedule downgrade' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('pending-plan-change')).toHaveAttribute('data-effective-at', nextMonth);
  await expect(page.getByRole('status').filter({ hasText: 'Moving to Production 10k' })).toContainText(formatDateTime(nextMonth));
  await expect(page.getByTestId('plan-change-notice')).toContainText(`Downgrade to Production 10k scheduled for ${formatDateTime(nextMonth)}`);
  await expect(planRow('10k')).toContainText(`From ${formatDate(nextMonth)}`);
  await expect(page.getByTestId('current-plan')).toHaveText('Production 50k');
  await shot(page, 'billing-pending-downgrade');

  await page.reload();
  await expect(page.getByTestId('pending-plan-change')).toHaveAttribute('data-plan', '10k');

  // Choosing the current plan again cancels it.
  await page.getByRole('button', { name: 'Keep Production 50k' }).first().click();
  await expect(dialog.getByRole('heading', { name: 'Keep Production 50k?' })).toBeVisible();
  await expect(dialog).toContainText('The downgrade to Production 10k');
  await dialog.getByRole('button', { name: 'Keep Production 50k' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('pending-plan-change')).toHaveCount(0);
  await expect(page.getByTestId('plan-change-notice')).toContainText('The scheduled downgrade is cancelled');

  // Up, with no payment provider configured: a request the operator grants; the plan stays until then.
  await planRow('100k').getByRole('button', { name: 'Upgrade to Production 100k' }).click();
  await expect(dialog.getByRole('heading', { name: 'Upgrade to Production 100k?' })).toBeVisible();
  await expect(dialog.getByTestId('prorated-charge')).toHaveText(/^€\d+\.\d{2}$/);
  await expect(dialog.getByTestId('upgrade-is-request')).toContainText('sent as a request');
  await shot(page, 'billing-upgrade-dialog', { fullPage: false });
  await dialog.getByRole('button', { name: 'Request upgrade' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('plan-change-notice')).toContainText('Your request to move to Production 100k is with the operator');
  await expect(page.getByTestId('plan-request')).toHaveAttribute('data-plan', '100k');
  await expect(page.getByTestId('current-plan')).toHaveText('Production 50k');
  await shot(page, 'billing-upgrade-requested');

  // Withdrawn, after a confirmation; then asked again.
  await page.getByRole('button', { name: 'Withdraw request' }).click();
  const withdraw = page.getByTestId('withdraw-plan-request-dialog');
  await withdraw.getByRole('button', { name: 'Withdraw request' }).click();
  await expect(withdraw).toBeHidden();
  await expect(page.getByTestId('plan-request')).toHaveCount(0);
  await planRow('100k').getByRole('button', { name: 'Upgrade to Production 100k' }).click();
  await dialog.getByRole('button', { name: 'Request upgrade' }).click();
  await expect(page.getByTestId('plan-request')).toHaveAttribute('data-plan', '100k');

  // The operator grants it (org:plan): the page shows the new plan, and no request.
  await setPlan(page, '100k');
  await page.reload();
  await expect(page.getByTestId('current-plan')).toHaveText('Production 100k');
  await expect(page.getByTestId('plan-request')).toHaveCount(0);
  await expect(page.getByTestId('sidebar-usage')).toHaveText(/Production 100k plan.*0 \/ 100,000 this month/);
  await expect(planRow('100k')).toHaveAttribute('data-current', 'true');
});

test('limits before the click: the domain and endpoint caps on their buttons, and broadcast sending waiting for a paid plan', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page, uniqueEmail('billing-limits'), { landOn: '/domains' });

  // Free allows one domain: counted on the button before any, then disabled at the cap.
  const addDomain = page.getByRole('button', { name: 'Add domain' });
  await expect(page.getByTestId('cap-note')).toHaveText('0 of 1 domain on the Free plan. Compare plans');
  await expect(addDomain).toBeEnabled();
  const domain = domainName();
  await trpcMutation(page, 'domains.create', { name: domain });
  await page.reload();
  await expect(page.getByTestId('cap-note')).toHaveText('1 of 1 domain on the Free plan. Upgrade for more');
  await expect(addDomain).toBeDisabled();
  await expect(addDomain).toHaveAccessibleDescription(/1 of 1 domain on the Free plan/);
  await shot(page, 'limits-domains');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('cap-note').getByRole('link', { name: 'Upgrade for more' })).toBeVisible();
  await shot(page, 'limits-domains-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  // One webhook endpoint, the same way.
  await page.goto('/webhooks');
  await expect(page.getByTestId('cap-note')).toHaveText('0 of 1 webhook endpoint on the Free plan. Compare plans');
  await trpcMutation(page, 'webhooks.create', { url: 'http://127.0.0.1:9/hooks', events: ['*'] });
  await page.reload();
  await expect(page.getByRole('button', { name: 'Add endpoint' })).toBeDisabled();
  await expect(page.getByTestId('cap-note')).toHaveAttribute('data-reached', 'true');
  await shot(page, 'limits-webhooks');

  // A broadcast can be written on Free; Send and Schedule say before the click that sending takes a paid plan.
  const audience = await trpcMutation<{ id: string }>(page, 'audiences.create', { name: 'Readers' });
  const draft = await trpcMutation<{ id: string }>(page, 'broadcasts.create', { audience_id: audience.id, from: `news@${domain}`, name: 'Launch', subject: 'We launched', html: '<p>Hello</p>' });
  await page.goto(`/broadcasts/${draft.id}`);
  const panel = page.getByTestId('send-panel');
  await expect(panel.getByTestId('paid-plan-note')).toContainText('The Free plan does not send broadcasts');
  await expect(panel.getByRole('button', { name: 'Send now' })).toBeDisabled();
  await expect(panel.getByRole('button', { name: 'Schedule' })).toBeDisabled();
  await expect(panel.getByRole('button', { name: 'Send now' })).toHaveAccessibleDescription(/does not send broadcasts/);
  await expect(panel.getByRole('button', { name: 'Send test' })).toBeEnabled();
  await shot(page, 'limits-broadcast-free');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'limits-broadcast-free-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  // The way to more is the billing page.
  await panel.getByRole('link', { name: 'move up to a paid plan' }).click();
  await expect(page).toHaveURL(/\/billing$/);

  // On a paid volume both wait no more, and the caps are that plan's.
  await setPlan(page, '10k');
  await page.goto(`/broadcasts/${draft.id}`);
  await expect(panel.getByRole('button', { name: 'Send now' })).toBeEnabled();
  await expect(panel.getByTestId('paid-plan-note')).toHaveCount(0);
  await page.goto('/domains');
  await expect(page.getByTestId('cap-note')).toHaveText('1 of 3 domains on the Production 10k plan. Compare plans');
  await expect(page.getByRole('button', { name: 'Add domain' })).toBeEnabled();
});
