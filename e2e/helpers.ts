import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, type Page } from '@playwright/test';

export const password = 'correct horse battery staple';

/** A fresh address per test: every sign-up makes a new organization on the Free plan. */
export const uniqueEmail = (prefix = 'e2e') => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** The dashboard's home, where signing up and signing in land: the overview at `/`. */
export const HOME_URL = /^http:\/\/[^/]+\/$/;

/**
 * Signs up through the form, which lands on the overview; then opens `landOn`, the API keys page
 * unless told otherwise, where most specs begin. Live sending waits until the owner's address is
 * confirmed: `confirmed` has the operator vouch for it (org:confirm), for specs that send live
 * mail but are not about the confirmation (e2e/confirm-address.spec.ts uses the mailed link).
 */
export async function signUp(page: Page, email: string, { landOn = '/api-keys', confirmed = false, dataDir }: { landOn?: string; confirmed?: boolean; dataDir?: string } = {}) {
  await page.goto('/sign-up');
  await page.getByLabel('Name').fill('Ada Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(HOME_URL);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  if (confirmed) await runAdmin(page, 'org:confirm', [], dataDir);
  if (landOn !== '/') await page.goto(landOn);
  else if (confirmed) await page.reload();
}

/**
 * A screenshot into $SHOTS_DIR when it is set (for reviewing the screens), else nothing. Whole
 * pages by default; dialogs only in the viewport, where they are drawn.
 *
 * Chromium does not paint a sandboxed (opaque-origin) frame while it is outside the viewport, and
 * a full-page capture does not wait for it to: an email or template preview below the fold came
 * out blank, though a person scrolling to it sees it drawn. A page with a frame is therefore taken
 * with the viewport as tall as the page, once the frames have painted.
 */
export async function shot(page: Page, name: string, { fullPage = true } = {}) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  const path = `${dir}/${name}.png`;
  if (!fullPage || (await page.locator('iframe').count()) === 0) {
    await page.screenshot({ path, fullPage });
    return;
  }
  const viewport = page.viewportSize()!;
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.setViewportSize({ width: viewport.width, height: await page.evaluate(() => document.documentElement.scrollHeight) });
  await page.waitForTimeout(300);
  await page.screenshot({ path });
  await page.setViewportSize(viewport);
}

/** Creates an API key through the dashboard's dialog (on /api-keys) and returns its secret. */
export async function createApiKey(
  page: Page,
  name: string,
  { mode = 'Live', permission = 'Full access' }: { mode?: 'Live' | 'Test'; permission?: 'Full access' | 'Sending access' } = {},
): Promise<string> {
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  const dialog = page.getByTestId('create-api-key-dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Permission').selectOption({ label: permission });
  await dialog.getByLabel('Mode').selectOption({ label: mode });
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const secret = dialog.getByTestId('api-key-secret');
  await expect(secret).toHaveValue(mode === 'Live' ? /^eu_live_/ : /^eu_test_/);
  const value = await secret.inputValue();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  return value;
}

const execFileAsync = promisify(execFile);

/**
 * Puts the signed-in person's organization on another plan with the operator CLI
 * (`npm run admin -- org:plan`), which reaches the running e2e server through its loopback admin
 * endpoint in DATA_DIR (.data-e2e, see playwright.config.ts).
 */
export async function setPlan(page: Page, plan: string, dataDir?: string): Promise<void> {
  expect(await runAdmin(page, 'org:plan', ['--plan', plan], dataDir)).toMatchObject({ plan });
}

/**
 * An operator command about the signed-in person's organization (`--org` added), answered as JSON;
 * `dataDir` names a spec's own server (e2e/own-server.ts) instead of the shared one.
 */
async function runAdmin(page: Page, command: string, args: string[], dataDir = '.data-e2e'): Promise<unknown> {
  const response = await page.request.get(`/api/trpc/organization.current?input=${encodeURIComponent('{}')}`);
  expect(response.status(), await response.text()).toBe(200);
  const organizationId: string = (await response.json()).result.data.id;
  const { stdout } = await execFileAsync('npm', ['run', '--silent', 'admin', '--', command, '--org', organizationId, ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
  });
  const answer: unknown = JSON.parse(stdout.trim().split('\n').pop()!);
  expect(answer).toMatchObject({ organizationId });
  return answer;
}
