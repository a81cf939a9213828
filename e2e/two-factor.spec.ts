import { expect, test, type Page } from '@playwright/test';
import { totpCode, wrongCode } from '../test/support/totp';
import { HOME_URL, password, shot, signUp, uniqueEmail } from './helpers';

/**
 * Two-factor sign-in in the browser: set up from the account page with a secret the test reads
 * off the screen (its codes computed here, RFC 6238), signing in with a code and with a recovery
 * code, and an organization that requires it holding a person at the set-up step.
 */

/** Sets up two-factor sign-in on /account as a person does; answers the secret and the recovery codes. */
async function setUpOnAccountPage(page: Page, { screenshots = false } = {}) {
  await page.goto('/account');
  const section = page.getByTestId('two-factor-section');
  await expect(section.getByText('Your password alone signs you in.')).toBeVisible();
  if (screenshots) await shot(page, 'two-factor-account-off');
  await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await section.getByLabel('Password').fill(password);
  await section.getByRole('button', { name: 'Continue' }).click();

  await expect(section.getByTestId('two-factor-secret')).toBeVisible();
  const secret = (await section.getByTestId('two-factor-secret').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expect(section.getByTestId('two-factor-uri')).toContainText(`secret=${secret}`);
  if (screenshots) await shot(page, 'two-factor-account-secret');

  await section.getByLabel('Authentication code').fill(wrongCode(secret));
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(section.getByRole('alert')).toContainText('Invalid code');
  await section.getByLabel('Authentication code').fill(totpCode(secret));
  await section.getByRole('button', { name: 'Turn on' }).click();

  await expect(section.getByTestId('recovery-code')).toHaveCount(10);
  const codes = await section.getByTestId('recovery-code').allInnerTexts();
  if (screenshots) await shot(page, 'two-factor-account-recovery-codes');
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByText('Your account asks for a code at every sign-in.')).toBeVisible();
  if (screenshots) await shot(page, 'two-factor-account-on');
  return { secret, codes };
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).first().click();
  await expect(page).toHaveURL(/\/sign-in$/);
}

async function passwordStep(page: Page, email: string) {
  // Filled again should the page's first render replace the fields (hydration) after a fast fill.
  await expect(async () => {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await expect(page.getByLabel('Email')).toHaveValue(email, { timeout: 500 });
  }).toPass();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
}

test('sets up two-factor sign-in, then signs in with an authenticator code and with a recovery code once', async ({ page }) => {
  const email = uniqueEmail('two-factor');
  await signUp(page, email, { landOn: '/' });
  await page.getByTestId('user-name').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
  const { secret, codes } = await setUpOnAccountPage(page, { screenshots: true });

  await signOut(page);
  await passwordStep(page, email);
  await shot(page, 'two-factor-sign-in-code');
  await page.getByLabel('Authentication code').fill(wrongCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.locator('form').getByRole('alert')).toContainText('Invalid code');
  await shot(page, 'two-factor-sign-in-wrong-code');
  await page.getByLabel('Authentication code').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(HOME_URL);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();

  // A recovery code signs in once; the same code again is refused.
  for (const expected of ['signed in', 'refused'] as const) {
    if (expected === 'signed in') await signOut(page);
    else await page.goto('/sign-in');
    await passwordStep(page, email);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    if (expected === 'signed in') {
      await expect(page).toHaveURL(HOME_URL);
      await page.context().clearCookies();
    } else {
      await expect(page.locator('form').getByRole('alert')).toContainText('Invalid backup code');
      await shot(page, 'two-factor-sign-in-recovery-reused');
    }
  }
});

test('an owner requires two-factor sign-in: without it, the set-up replaces the dashboard until done', async ({ page }) => {
  const email = uniqueEmail('two-factor-required');
  await signUp(page, email, { landOn: '/settings' });
  const requirement = page.getByTestId('two-factor-requirement');
  await expect(requirement.getByText('set up two-factor sign-in for yourself')).toBeVisible();
  await requirement.getByRole('switch', { name: 'Require two-factor sign-in' }).click();
  await expect(requirement.getByRole('alert')).toContainText('Set up two-factor sign-in for yourself before requiring it');

  await setUpOnAccountPage(page);
  await page.goto('/settings');
  const toggle = requirement.getByRole('switch', { name: 'Require two-factor sign-in' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect(toggle).not.toHaveAttribute('aria-busy', 'true');
  await shot(page, 'two-factor-settings-required');

  // The owner turns their own off: now they are a member without it in an organization that requires it.
  await page.goto('/account');
  const section = page.getByTestId('two-factor-section');
  await section.getByRole('button', { name: 'Turn off' }).click();
  await section.getByLabel('Password').fill('not my password');
  await section.getByRole('button', { name: 'Turn off' }).click();
  await expect(section.getByRole('alert')).toContainText('Invalid password');
  await section.getByLabel('Password').fill(password);
  await section.getByRole('button', { name: 'Turn off' }).click();

  const gate = page.getByTestId('two-factor-required');
  await expect(gate.getByRole('heading', { name: 'Set up two-factor sign-in' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await page.goto('/api-keys');
  await expect(gate.getByRole('heading', { name: 'Set up two-factor sign-in' })).toBeVisible();
  const refused = await page.request.get(`/api/trpc/apiKeys.list?input=${encodeURIComponent('{}')}`);
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.data.envelope.code).toBe('TWO_FACTOR_REQUIRED');
  await shot(page, 'two-factor-required-gate');

  await gate.getByLabel('Password').fill(password);
  await gate.getByRole('button', { name: 'Continue' }).click();
  const secret = (await gate.getByTestId('two-factor-secret').innerText()).replace(/\s+/g, '');
  await gate.getByLabel('Authentication code').fill(totpCode(secret));
  await gate.getByRole('button', { name: 'Turn on' }).click();
  await expect(gate.getByTestId('recovery-code')).toHaveCount(10);
  await gate.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
});
