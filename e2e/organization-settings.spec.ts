import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { createApiKey, shot, signUp } from './helpers';
import { receiveAt, useLoopbackMail } from './loopback-mail';

/**
 * Issue 32, point 5: the organization's settings page. The notification address is confirmed with
 * the link mailed to the loopback MX (as e2e/confirm-address.spec.ts reads the owner's), and a
 * deletion is asked for, shown on every page, and cancelled.
 */
const DOMAIN = 'org-settings.test';

const loopback = useLoopbackMail();
test.beforeEach(() => receiveAt(loopback.dns, [DOMAIN], `mx.${DOMAIN}`));

const addressAt = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@${DOMAIN}`;

/** The notification-address link mailed to `to`, once it has arrived at the loopback MX. */
async function mailedLink(to: string): Promise<string> {
  const find = async () => {
    for (const message of loopback.mx.messages.filter((m) => m.to.includes(to))) {
      const mail = await simpleParser(message.raw);
      if (/^Confirm the notification address of /.test(mail.subject ?? '')) return mail;
    }
    return null;
  };
  await expect.poll(async () => (await find()) !== null, { timeout: 30_000 }).toBe(true);
  const mail = (await find())!;
  const link = /(http:\/\/\S+\/confirm-address\/[A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
  expect(link, mail.text).toBeDefined();
  return link!;
}

test('the owner renames the organization and confirms a notification address with the mailed link', async ({ page }) => {
  await signUp(page, addressAt('owner'), { landOn: '/settings' });
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await shot(page, 'organization-settings');

  const name = page.getByTestId('organization-name');
  await name.getByLabel('Name').fill('Lovelace Labs');
  await name.getByRole('button', { name: 'Save name' }).click();
  await expect(name.getByRole('status')).toHaveText('Renamed to Lovelace Labs.');
  await expect(page.getByTestId('organization-badge')).toContainText('Lovelace Labs');

  const ops = addressAt('ops');
  const section = page.getByTestId('notification-address');
  await section.getByLabel('New notification address').fill(ops);
  await section.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(section.getByTestId('notification-address-pending')).toContainText(`We mailed a link to ${ops}`);
  await expect(section.getByTestId('notification-address-current')).toContainText('(the owner’s address)');
  // Another link within the minute is refused, saying why.
  await section.getByTestId('resend-notification-link').click();
  await expect(section.getByRole('alert').last()).toContainText(/less than a minute ago; ask again in \d+ s/);
  await shot(page, 'organization-settings-notification-pending');

  const link = await mailedLink(ops);
  await page.goto(link);
  await expect(page.getByText('may receive the notices of an EU Mail organization')).toBeVisible();
  await page.getByRole('button', { name: 'Confirm my address' }).click();
  await expect(page.getByRole('heading', { name: 'Address confirmed' })).toBeVisible();
  await shot(page, 'organization-settings-notification-confirmed-page');
  // Used once: opened again it says so.
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'This link was used already' })).toBeVisible();

  await page.goto('/settings');
  await expect(section.getByTestId('notification-address-current')).toContainText(`Notices go to ${ops}`);
  await expect(section.getByTestId('notification-address-current')).toContainText('(confirmed)');
  await expect(section.getByTestId('notification-address-pending')).toHaveCount(0);
  await shot(page, 'organization-settings-notification-confirmed');
});

test('the owner cannot leave; deleting takes the typed name, stops the keys, shows the date on every page, and is cancelled', async ({ page, request }) => {
  await signUp(page, addressAt('owner'), { landOn: '/api-keys', confirmed: true });
  const key = await createApiKey(page, 'Backend');
  const withKey = () => request.get('/api/domains', { headers: { Authorization: `Bearer ${key}` } });
  expect((await withKey()).status()).toBe(200);

  await page.goto('/settings');
  await expect(page.getByTestId('leave-organization')).toContainText('transfer ownership');
  await expect(page.getByTestId('leave-organization').getByRole('button')).toHaveCount(0);

  await page.getByTestId('delete-organization').getByRole('button', { name: 'Delete organization' }).click();
  const dialog = page.getByTestId('delete-organization-dialog');
  const confirm = dialog.getByRole('button', { name: 'Delete organization' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/^Type .+ to confirm$/).fill('Ada Lovelace');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/^Type .+ to confirm$/).fill("Ada Lovelace's organization");
  await shot(page, 'organization-settings-delete-dialog', { fullPage: false });
  await confirm.click();
  await expect(dialog).toHaveCount(0);

  const pending = page.getByTestId('deletion-pending');
  await expect(pending).toContainText('API keys are refused and nothing is sent');
  await expect(page.getByTestId('deletion-banner')).toContainText('unless you cancel');
  await expect(page.getByTestId('download-export')).toBeVisible();
  await shot(page, 'organization-settings-deletion-pending');
  expect((await withKey()).status()).toBe(401);

  const download = page.waitForEvent('download');
  await page.getByTestId('download-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^organization-.+\.json$/);
  const exported = JSON.parse(await readFile(await file.path(), 'utf8'));
  expect(exported.apiKeys.map((k: { name: string }) => k.name)).toContain('Backend');

  // Every page says so.
  await page.goto('/domains');
  await expect(page.getByTestId('deletion-banner')).toBeVisible();
  await shot(page, 'organization-settings-deletion-banner');
  await page.getByRole('link', { name: 'Cancel deletion' }).click();
  await expect(page).toHaveURL(/\/settings/);
  await page.getByTestId('cancel-deletion').click();
  await expect(page.getByTestId('delete-organization').getByRole('button', { name: 'Delete organization' })).toBeVisible();
  await expect(page.getByTestId('deletion-banner')).toHaveCount(0);
  expect((await withKey()).status()).toBe(200);
});
