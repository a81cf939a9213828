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

test('a person makes a few changes across the dashboard and finds each of them in the audit log', async ({ page }) => {
  const email = uniqueEmail('audit-changes');
  await signUp(page, email);

  // A key, renamed.
  await createApiKey(page, 'Backend');
  await page.getByRole('button', { name: 'Rename Backend' }).click();
  const rename = page.getByTestId('rename-api-key-dialog');
  await rename.getByLabel('Name').fill('Production backend');
  await rename.getByRole('button', { name: 'Save name' }).click();
  await expect(rename).toBeHidden();

  // An audience with one contact.
  await page.goto('/audiences');
  await page.getByTestId('audiences-empty').getByRole('button', { name: 'Create audience' }).click();
  const create = page.getByTestId('create-audience-dialog');
  await create.getByLabel('Name').fill('Newsletter');
  await create.getByRole('button', { name: 'Create audience' }).click();
  await expect(page.getByRole('heading', { name: 'Newsletter', level: 1 })).toBeVisible();
  await page.getByTestId('contacts').getByRole('button', { name: 'Add contact' }).first().click();
  const add = page.getByTestId('add-contact-dialog');
  await add.getByLabel('Email').fill('grace@example.com');
  await add.getByRole('button', { name: 'Add contact' }).click();
  await expect(add).toBeHidden();

  // A suppressed address.
  await page.goto('/suppressions');
  await page.getByTestId('suppressions-empty').getByRole('button', { name: 'Add addresses' }).click();
  const suppress = page.getByTestId('add-suppressions-dialog');
  await suppress.getByLabel('Addresses').fill('ada@example.com');
  await suppress.getByRole('button', { name: 'Add 1 address' }).click();
  await expect(suppress).toBeHidden();

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
  const rows = page.getByTestId('audit-row');
  // Newest first, each by this person, with what it was done to.
  const expected: Array<[string, string, string | null]> = [
    ['Suppressed an address', 'ada@example.com', 'reason: manual'],
    ['Added a contact', 'grace@example.com', 'in Newsletter'],
    ['Created an audience', 'Newsletter', null],
    ['Renamed an API key', 'Production backend (eu_live_', 'Backend → Production backend'],
    ['Created an API key', 'Backend (eu_live_', null],
    ['Signed in', email, 'on signing up'],
  ];
  await expect(rows).toHaveCount(expected.length);
  for (const [index, [what, on, detail]] of expected.entries()) {
    await expect(rows.nth(index)).toContainText(what);
    await expect(rows.nth(index)).toContainText(on);
    if (detail) await expect(rows.nth(index)).toContainText(detail);
    await expect(rows.nth(index)).toContainText(email);
  }
  await shot(page, 'audit-log-changes');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'audit-log-changes-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  // Filtered to contacts: the one contact.
  await page.getByLabel('Kind').selectOption({ label: 'Contacts' });
  await expect(page).toHaveURL(/\/audit-log\?kind=contact$/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('grace@example.com');
});
