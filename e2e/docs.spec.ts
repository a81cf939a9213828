import { expect, test } from '@playwright/test';
import { shot, signUp, uniqueEmail } from './helpers';

test('the API reference is Scalar over our own document, with every asset from this origin', async ({ page, baseURL }) => {
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(baseURL!) && !url.startsWith('data:') && !url.startsWith('blob:')) elsewhere.push(url);
  });
  await page.goto('/docs', { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { name: 'EU Mail API', level: 1 })).toBeVisible();
  // The try-it console talks to this service, not through anyone's proxy.
  await expect(page.getByText(`${baseURL}/api`).first()).toBeVisible();
  await page.getByRole('button', { name: /Emails/ }).first().click();
  await expect(page.getByText('Send an email (or schedule it with scheduled_at)').first()).toBeAttached();
  await expect(page.getByText('/emails/batch').first()).toBeAttached();
  await shot(page, 'docs-reference', { fullPage: false });
  expect(elsewhere).toEqual([]);
});

test('dialogs keep focus inside and close with Escape', async ({ page }) => {
  await signUp(page, uniqueEmail('dialog'));
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create API key' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Name')).toBeFocused();
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});
