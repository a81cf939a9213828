import { expect, test } from '@playwright/test';
import { createApiKey, HOME_URL, password, shot, signUp, uniqueEmail } from './helpers';

test('the owner signs in, creates and revokes a key, and reads all three in the audit log', async ({ page }) => {
  const email = uniqueEmail('audit');
  await signUp(page, email);

  // Sign out and back in, and one wrong password on the way: both are sign-ins of this account.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  // A fresh load of the form, so nothing typed is lost to the sign-out's own navigation.
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not the password');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /invalid/i })).toBeVisible();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(HOME_URL);
  await page.goto('/api-keys');

  await createApiKey(page, 'Production app');
  const row = page.getByTestId('api-key-row').filter({ hasText: 'Production app' });
  await row.getByRole('button', { name: 'Revoke Production app' }).click();
  await page.getByRole('dialog', { name: 'Revoke API key' }).getByRole('button', { name: 'Revoke key' }).click();
  await expect(row).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/audit-log$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();

  const rows = page.getByTestId('audit-row');
  await expect(rows).toHaveCount(5);
  // Newest first: the revocation, the creation, the sign-in, the wrong password, the sign-up's sign-in.
  await expect(rows.nth(0)).toContainText('Revoked an API key');
  await expect(rows.nth(0)).toContainText('Production app (eu_live_');
  await expect(rows.nth(1)).toContainText('Created an API key');
  await expect(rows.nth(2)).toContainText('Signed in');
  await expect(rows.nth(3)).toContainText('Sign-in refused');
  await expect(rows.nth(3)).toContainText('wrong password');
  await expect(rows.nth(4)).toContainText('Signed in');
  await expect(rows.nth(4)).toContainText('on signing up');
  for (let index = 0; index < 5; index += 1) {
    await expect(rows.nth(index)).toContainText(email);
    // The browser's address on loopback, whichever family it used.
    await expect(rows.nth(index)).toContainText(/127\.0\.0\.1|::1/);
  }
  await expect(page.getByTestId('audit-count')).toHaveText('5 entries');
  await shot(page, 'audit-log');

  // Filtered to API keys: the two key rows only, and the filter stays in the URL.
  await page.getByLabel('Kind').selectOption({ label: 'API keys' });
  await expect(page).toHaveURL(/\/audit-log\?kind=api_key$/);
  await expect(rows).toHaveCount(2);
  await page.getByLabel('Kind').selectOption({ label: 'Domains' });
  await expect(page.getByTestId('audit-empty')).toContainText('Nothing recorded for domains');
  await shot(page, 'audit-log-empty');
});
