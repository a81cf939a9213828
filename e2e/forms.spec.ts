import { expect, test } from '@playwright/test';
import { E2E_DNS_PORT } from './loopback-ports';
import { startDnsServer, type DnsServer } from '../test/support/dns';
import { shot, signUp, uniqueEmail } from './helpers';
import { trpcMutation, verifiedDomain } from './dashboard-api';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/**
 * Sign-up forms end to end: the empty list, a form made in the editor, its snippet copied, a
 * submission through the public endpoint (its address's MX served by the loopback DNS server the
 * service resolves through) shown in the submissions table, and a new consent text version.
 */
let dns: DnsServer;

test.beforeAll(async () => {
  dns = await startDnsServer({ port: E2E_DNS_PORT });
});

test.afterAll(() => dns?.close());

const SITE = 'https://www.shop.example';

test('make a form, copy its snippet, see a sign-up arrive and change the consent text', async ({ page }) => {
  await signUp(page, uniqueEmail('forms'), { landOn: '/forms' });
  await expect(page.getByRole('heading', { level: 1, name: 'Sign-up forms' })).toBeVisible();
  await expect(page.getByTestId('forms-empty')).toBeVisible();
  await shot(page, 'forms-empty');

  await trpcMutation(page, 'audiences.create', { name: 'Newsletter' });
  await trpcMutation(page, 'topics.create', { name: 'Product news', default_subscription: 'opt_out' });
  await page.getByRole('link', { name: 'New form' }).click();
  await expect(page).toHaveURL(/\/forms\/new$/);
  await page.getByLabel('Form name').fill('Footer sign-up');
  await page.getByLabel('Audience').selectOption({ label: 'Newsletter' });
  await page.getByLabel('Product news').check();
  await page.getByLabel('Last name', { exact: true }).check();
  await page.getByLabel('Consent text').fill('Yes, send me the monthly newsletter. I can unsubscribe at any time.');
  await page.getByLabel('Allowed sites').fill(SITE);
  await shot(page, 'forms-new');
  await page.getByRole('button', { name: 'Create form' }).click();

  await expect(page).toHaveURL(/\/forms\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Footer sign-up' })).toBeVisible();
  const snippet = page.getByTestId('snippet-code');
  await expect(snippet).toContainText('name="last_name"');
  await expect(snippet).toContainText('Yes, send me the monthly newsletter.');
  await page.getByRole('button', { name: 'Copy snippet' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const endpoint = /action="([^"]+)"/.exec(copied)?.[1];
  expect(endpoint).toMatch(/\/f\/frm_[A-Za-z0-9_-]{22}$/);
  await expect(page.getByTestId('submissions-empty')).toBeVisible();

  // A person on the shop's page signs up (the page's script would post this).
  dns.mx('example.net', 'mx.example.net');
  const response = await page.request.post(endpoint!, {
    headers: { origin: SITE },
    data: { email: 'reader@example.net', first_name: 'Rea', last_name: 'Der', _fill_ms: 5000 },
  });
  expect(response.status(), await response.text()).toBe(200);
  expect(response.headers()['access-control-allow-origin']).toBe(SITE);

  await page.reload();
  const row = page.getByTestId('submission-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('reader@example.net');
  await expect(row).toContainText('Rea Der');
  await expect(row).toContainText('Subscribed');
  await expect(row).toContainText('v1');
  await shot(page, 'forms-detail');

  await page.getByLabel('Consent text').fill('Yes, send me the monthly newsletter and product news.');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Consent text version 2.')).toBeVisible();
  await expect(snippet).toContainText('and product news.');

  // On a phone the page fits its width: the snippet scrolls inside its own frame.
  const detailUrl = page.url();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(detailUrl);
  await expect(page.getByTestId('snippet-code')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await shot(page, 'forms-detail-phone');
  await page.setViewportSize({ width: 1280, height: 720 });

  await page.getByRole('link', { name: 'Sign-up forms' }).first().click();
  await expect(page).toHaveURL(/\/forms$/);
  await expect(page.getByTestId('form-row')).toHaveCount(1);
  await expect(page.getByTestId('form-row')).toContainText('Footer sign-up');
  await expect(page.getByTestId('forms-count')).toHaveText('1 form');
  await shot(page, 'forms-list');
});

test('a double opt-in form needs a verified domain: the refusal says so in the editor', async ({ page }) => {
  await signUp(page, uniqueEmail('forms-doi'), { landOn: '/forms/new' });
  await trpcMutation(page, 'audiences.create', { name: 'Members' });
  await page.reload();
  await page.getByLabel('Form name').fill('Members');
  await page.getByLabel('Audience').selectOption({ label: 'Members' });
  await page.getByLabel('Consent text').fill('Yes, add me.');
  await page.getByLabel('Allowed sites').fill(SITE);
  await page.getByLabel('Double opt-in').check();
  // No verified domain to choose: the browser keeps the select required, so the server's word is checked through the API.
  await expect(page.getByLabel('Send the confirmation from').locator('option')).toHaveCount(1);
  const refused = await page.request.post('/api/trpc/forms.create', {
    data: { name: 'Members', audience_id: await page.getByLabel('Audience').inputValue(), consent_text: 'Yes', allowed_origins: [SITE], double_opt_in: true },
  });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain('domain_id');
  await shot(page, 'forms-double-opt-in');
});

test('a double opt-in form writes its confirmation with a template chosen in the editor, the built-in text by default', async ({ page }) => {
  await signUp(page, uniqueEmail('forms-template'), { landOn: '/forms' });
  await trpcMutation(page, 'audiences.create', { name: 'Readers' });
  const domain = await verifiedDomain(page, dns);
  const template = await trpcMutation<{ id: string }>(page, 'templates.create', {
    name: 'Confirm (branded)',
    subject: 'One click left, {{ name | default: "friend" }}',
    html: '<p><a href="{{ confirmation_url }}">Yes, sign me up</a></p>',
  });
  await trpcMutation(page, 'templates.create', { name: 'Welcome', subject: 'Welcome', html: '<p>Hi {{ name }}</p>' });
  await trpcMutation(page, 'templates.create', { name: 'Confirm (draft)', subject: 'Confirm', html: '<p>{{ confirmation_url }}</p>', draft: true });

  await page.goto('/forms/new');
  await page.getByLabel('Form name').fill('Readers');
  await page.getByLabel('Audience').selectOption({ label: 'Readers' });
  await page.getByLabel('Consent text').fill('Yes, send me the readers’ letter.');
  await page.getByLabel('Allowed sites').fill(SITE);
  await page.getByLabel('Double opt-in').check();
  await page.getByLabel('Send the confirmation from').selectOption({ label: domain });
  const picker = page.getByLabel('Confirmation email');
  await expect(picker).toHaveValue('');
  await expect(picker.locator('option:checked')).toHaveText('Built-in text');
  // Templates that cannot confirm anybody are listed, disabled, with the reason.
  await expect(picker.locator('option', { hasText: 'Welcome (no {{ confirmation_url }})' })).toBeDisabled();
  await expect(picker.locator('option', { hasText: 'Confirm (draft) (never published)' })).toBeDisabled();
  await picker.selectOption({ label: 'Confirm (branded)' });
  await shot(page, 'forms-confirmation-template');
  await page.getByRole('button', { name: 'Create form' }).click();

  await expect(page).toHaveURL(/\/forms\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Readers' })).toBeVisible();
  await expect(page.getByLabel('Confirmation email')).toHaveValue(template.id);
  // Back to the built-in text, saved.
  await page.getByLabel('Confirmation email').selectOption({ label: 'Built-in text' });
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByLabel('Confirmation email')).toHaveValue('');
  await page.reload();
  await expect(page.getByLabel('Confirmation email')).toHaveValue('');
});
