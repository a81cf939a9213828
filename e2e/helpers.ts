import { expect, type Page } from '@playwright/test';

export const password = 'correct horse battery staple';

/** A fresh address per test: every sign-up makes a new organization on the Free plan. */
export const uniqueEmail = (prefix = 'e2e') => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

export async function signUp(page: Page, email: string) {
  await page.goto('/sign-up');
  await page.getByLabel('Name').fill('Ada Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/api-keys$/);
}

/**
 * A screenshot into $SHOTS_DIR when it is set (for reviewing the screens), else nothing. Whole
 * pages by default; dialogs only in the viewport, where they are drawn.
 */
export async function shot(page: Page, name: string, { fullPage = true } = {}) {
  const dir = process.env.SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage });
}
