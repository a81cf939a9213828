import { expect, test, type Page } from '@playwright/test';
import { SMTP_GATEWAY_PORT, SMTP_GATEWAY_TLS_PORT } from './gateway-ports';
import { createApiKey, HOME_URL, password, shot, signUp, uniqueEmail } from './helpers';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

async function createKey(page: Page, name: string, options: { permission?: string; mode?: string } = {}) {
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  // The dialog's title changes once the key exists, so it is found by its test id.
  const dialog = page.getByTestId('create-api-key-dialog');
  await expect(dialog.getByRole('heading', { name: 'Create API key' })).toBeVisible();
  await dialog.getByLabel('Name').fill(name);
  if (options.permission) await dialog.getByLabel('Permission').selectOption({ label: options.permission });
  if (options.mode) await dialog.getByLabel('Mode').selectOption({ label: options.mode });
  await dialog.getByRole('button', { name: 'Create key' }).click();
  return dialog;
}

const rowOf = (page: Page, name: string) => page.getByTestId('api-key-row').filter({ has: page.getByRole('cell', { name, exact: true }) });

test('a new person signs up, creates a key, sees its secret once, and revokes it', async ({ page }) => {
  const email = uniqueEmail();

  // Pages behind sign-in send visitors without a session to /sign-in.
  await page.goto('/api-keys');
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByRole('link', { name: 'Create one' }).click();
  await expect(page).toHaveURL(/\/sign-up$/);

  await signUp(page, email);
  await expect(page.getByTestId('user-name')).toHaveText('Ada Lovelace');
  // Signing up made an organization on the Free plan.
  await expect(page.getByTestId('organization-badge')).toContainText("Ada Lovelace's organization");
  await expect(page.getByTestId('organization-badge')).toContainText('Free plan');
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  await expect(page.getByTestId('api-keys-empty')).toContainText('No API keys yet');

  // Create a live key: the secret is shown once, with a working Copy button.
  const dialog = await createKey(page, 'Production app', { permission: 'Sending access', mode: 'Live' });
  await expect(dialog.getByRole('heading', { name: 'API key created' })).toBeVisible();
  const secretInput = dialog.getByTestId('api-key-secret');
  await expect(secretInput).toHaveValue(/^eu_live_[A-Za-z0-9_-]{43}$/);
  const secret = await secretInput.inputValue();
  await expect(dialog.getByText('This secret will not be shown again')).toBeVisible();
  await dialog.getByRole('button', { name: 'Copy secret' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  // The list shows the key's metadata, never its secret.
  const row = rowOf(page, 'Production app');
  await expect(row).toBeVisible();
  await expect(row).toContainText(`${secret.slice(0, 12)}…`);
  await expect(row).toContainText('Sending access');
  await expect(row).toContainText('Live');
  await expect(page.getByText(secret)).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  // The Free plan allows one live key: a second is refused with the server's message.
  const refused = await createKey(page, 'Second live key');
  const error = refused.getByRole('alert');
  await expect(error).toContainText('Plan limit reached');
  await expect(refused.getByTestId('error-message')).toHaveAttribute('data-error-code', 'PLAN_LIMIT_EXCEEDED');
  await expect(refused.getByTestId('error-message')).toContainText('allows 1 live API key');
  await refused.getByRole('button', { name: 'Cancel' }).click();
  await expect(refused).toBeHidden();
  await expect(page.getByTestId('api-key-row')).toHaveCount(1);

  // Test keys do not count against the cap.
  const testDialog = await createKey(page, 'CI', { mode: 'Test' });
  await expect(testDialog.getByTestId('api-key-secret')).toHaveValue(/^eu_test_/);
  await testDialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('api-key-row')).toHaveCount(2);
  await expect(rowOf(page, 'CI')).toContainText('Test');

  // Revoke, with a confirmation step that can be cancelled.
  await row.getByRole('button', { name: 'Revoke Production app' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke API key' });
  await expect(confirm).toContainText('Production app');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: 'Revoke Production app' }).click();
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId('api-key-row')).toHaveCount(1);

  // The revoked key no longer authenticates against the REST API.
  const response = await page.request.get('/api/api-keys', { headers: { Authorization: `Bearer ${secret}` } });
  expect(response.status()).toBe(401);

  // Sign out, then back in: the remaining key is still there.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto('/api-keys');
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(HOME_URL);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
  await expect(rowOf(page, 'CI')).toBeVisible();
});

test('the SMTP settings: a panel on the page, a link beside each sending key, and the whole login when a sending key is created', async ({ page }) => {
  await signUp(page, uniqueEmail('e2e-smtp'));
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  // The panel is there before any key: the host and ports of this service, the password explained.
  const panel = page.getByTestId('smtp-panel');
  await expect(panel.getByRole('heading', { name: 'SMTP', level: 2 })).toBeVisible();
  await expect(panel.getByTestId('smtp-host')).toHaveText('mx.eumail.example');
  await expect(panel.getByTestId('smtp-starttls-port')).toHaveText(String(SMTP_GATEWAY_PORT));
  await expect(panel.getByTestId('smtp-tls-port')).toHaveText(String(SMTP_GATEWAY_TLS_PORT));
  await expect(panel.getByTestId('smtp-username')).toHaveText('apikey');
  await expect(panel.getByTestId('smtp-password')).toHaveText('The secret of a sending access key');
  await expect(panel.getByTestId('smtp-tls-note')).toContainText('only once the connection is encrypted');
  // The e2e server has no SMTP_TLS_CERT: the gateway made its own certificate, and the page says what that means.
  await expect(panel.getByTestId('smtp-self-signed')).toContainText('skip certificate verification');
  await shot(page, 'api-keys-smtp-panel');
  await panel.getByRole('button', { name: 'Copy Host' }).click();
  expect(await clipboard()).toBe('mx.eumail.example');
  await panel.getByRole('button', { name: 'Copy STARTTLS port' }).click();
  expect(await clipboard()).toBe(String(SMTP_GATEWAY_PORT));
  await panel.getByRole('button', { name: 'Copy Username' }).click();
  expect(await clipboard()).toBe('apikey');

  // A new sending key comes with its whole SMTP login, the secret as the password.
  const dialog = await createKey(page, 'WordPress', { permission: 'Sending access', mode: 'Live' });
  const secret = await dialog.getByTestId('api-key-secret').inputValue();
  const login = dialog.getByTestId('new-key-smtp');
  await expect(login.getByTestId('smtp-host')).toHaveText('mx.eumail.example');
  await expect(login.getByTestId('smtp-password')).toHaveText(secret);
  await login.getByRole('button', { name: 'Copy Password' }).click();
  expect(await clipboard()).toBe(secret);
  await shot(page, 'api-key-created-smtp', { fullPage: false });
  await dialog.getByRole('button', { name: 'Done' }).scrollIntoViewIfNeeded();
  await shot(page, 'api-key-created-smtp-end', { fullPage: false });
  await dialog.getByRole('button', { name: 'Done' }).click();

  // A full access key cannot log in to the gateway: no SMTP settings beside its secret.
  const fullAccess = await createKey(page, 'Backend', { mode: 'Test' });
  await expect(fullAccess.getByTestId('api-key-secret')).toHaveValue(/^eu_test_/);
  await expect(fullAccess.getByTestId('new-key-smtp')).toHaveCount(0);
  await fullAccess.getByRole('button', { name: 'Done' }).click();

  // The sending key's row leads to the panel; the full access key's has no such link.
  await expect(rowOf(page, 'Backend').getByRole('link', { name: /SMTP/ })).toHaveCount(0);
  await rowOf(page, 'WordPress').getByRole('link', { name: 'SMTP settings for WordPress' }).click();
  await expect(page).toHaveURL(/\/api-keys#smtp$/);
  await expect(panel).toBeInViewport();
  await shot(page, 'api-keys-smtp-link-followed', { fullPage: false });
});

test('a wrong password is refused with a message', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(`nobody-${Date.now()}@example.com`);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText(/invalid email or password/i);
  await expect(page).toHaveURL(/\/sign-in$/);
});

test('every resource of the navigation is built, and the API reference lists the operations', async ({ page }) => {
  await signUp(page, `e2e-docs-${Date.now()}@example.com`);
  // Broadcasts was the last placeholder: no item is marked "Soon" any more.
  await expect(page.getByRole('navigation', { name: 'Main' }).getByText('Soon', { exact: true })).toHaveCount(0);
  await page.getByRole('link', { name: /^Broadcasts/ }).click();
  await expect(page).toHaveURL(/\/broadcasts$/);
  await expect(page.getByTestId('broadcasts-empty')).toBeVisible();
  await expect(page.getByTestId('coming-soon')).toHaveCount(0);

  // The reference opens in a new tab (e2e/docs.spec.ts), beside the dashboard.
  const [docs] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: /^API docs/ }).click()]);
  await expect(docs).toHaveURL(/\/docs$/);
  await expect(docs.getByRole('heading', { name: 'EU Mail API', level: 1 })).toBeVisible();
  await docs.getByRole('button', { name: /API keys/ }).first().click();
  await expect(docs.getByText('Create an API key').first()).toBeAttached();
  await expect(docs.getByText('Revoke an API key').first()).toBeAttached();
});

test('one process serves the dashboard, REST, tRPC and the Inngest route', async ({ request }) => {
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  expect(health.headers()['x-request-id']).toBeTruthy();
  const unauthenticated = await request.get('/api/api-keys');
  expect(unauthenticated.status()).toBe(401);
  expect(await unauthenticated.json()).toEqual({ error: expect.any(String), code: 'UNAUTHORIZED' });
  const trpc = await request.get('/api/trpc/apiKeys.list?input=%7B%7D');
  expect(trpc.status()).toBe(401);
  expect((await trpc.json()).error.message).toBe('Sign in to continue');
  const inngest = await request.get('/api/inngest');
  expect(inngest.status()).toBe(404);
  expect((await inngest.json()).error).toMatch(/embedded runner/);
  const openapi = await request.get('/docs/openapi.json');
  expect((await openapi.json()).openapi).toBe('3.1.0');
});

test('a sending key pinned to the domain in the create form, a key renamed, and when each key was last used', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page, uniqueEmail('e2e-key-pin'));

  // Without a domain of one's own there is nothing to pin to, and the form says where to add one.
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  let dialog = page.getByTestId('create-api-key-dialog');
  await expect(dialog.getByLabel('Domain')).toHaveCount(0);
  await dialog.getByLabel('Permission').selectOption({ label: 'Sending access' });
  await expect(dialog.getByLabel('Domain')).toBeDisabled();
  await expect(dialog.getByRole('link', { name: 'add one' })).toHaveAttribute('href', '/domains');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  const domain = `mail-${Date.now()}.example.com`;
  await page.goto('/domains');
  await page.getByRole('button', { name: 'Add domain' }).first().click();
  const addDomain = page.getByTestId('add-domain-dialog');
  await addDomain.getByLabel('Domain', { exact: true }).fill(domain);
  await addDomain.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByRole('heading', { name: domain, level: 1 })).toBeVisible();

  // Pinned to it: the options are the organization's own domains, never the sandbox.
  await page.goto('/api-keys');
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  dialog = page.getByTestId('create-api-key-dialog');
  await dialog.getByLabel('Name').fill('Shop');
  await dialog.getByLabel('Permission').selectOption({ label: 'Sending access' });
  const pin = dialog.getByLabel('Domain');
  await expect(pin.locator('option')).toHaveText(['Any verified domain', `Only ${domain} (not verified yet)`]);
  await pin.selectOption({ label: `Only ${domain} (not verified yet)` });
  await expect(dialog).toContainText('may send only from this domain');
  await shot(page, 'api-key-create-pinned', { fullPage: false });
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.getByTestId('secret-panel-pin')).toHaveText(`only from ${domain}`);
  const shopSecret = await dialog.getByTestId('api-key-secret').inputValue();
  await dialog.getByRole('button', { name: 'Done' }).click();
  const shop = rowOf(page, 'Shop');
  await expect(shop.getByTestId('api-key-pin')).toHaveText(`only from ${domain}`);
  await expect(shop.getByTestId('api-key-last-used')).toHaveText('Never');

  // The pin holds: a send from the sandbox with this key is refused.
  const refused = await page.request.post('/api/emails', {
    headers: { Authorization: `Bearer ${shopSecret}` },
    data: { from: 'hello@sandbox.localhost', to: 'someone@example.com', subject: 'Hi', text: 'Hi' },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ code: 'FORBIDDEN' });
  // It authenticated all the same: the list says it was used just now.
  await page.reload();
  await expect(shop.getByTestId('api-key-last-used')).toHaveText('just now');

  // A second key, renamed; its secret and badges stay.
  const ci = await createApiKey(page, 'CI', { mode: 'Test' });
  await rowOf(page, 'CI').getByRole('button', { name: 'Rename CI' }).click();
  const rename = page.getByTestId('rename-api-key-dialog');
  await expect(rename.getByLabel('Name')).toHaveValue('CI');
  await rename.getByLabel('Name').fill('  ');
  await expect(rename.getByRole('button', { name: 'Save name' })).toBeDisabled();
  await rename.getByLabel('Name').fill('CI pipeline');
  await shot(page, 'api-key-rename', { fullPage: false });
  await rename.getByRole('button', { name: 'Save name' }).click();
  await expect(rename).toBeHidden();
  await expect(rowOf(page, 'CI pipeline')).toContainText('Test');
  await expect(rowOf(page, 'CI')).toHaveCount(0);
  await expect(rowOf(page, 'CI pipeline').getByTestId('api-key-last-used')).toHaveText('Never');
  expect((await page.request.get('/api/api-keys', { headers: { Authorization: `Bearer ${ci}` } })).status()).toBe(200);
  await page.reload();
  await expect(rowOf(page, 'CI pipeline').getByTestId('api-key-last-used')).toHaveText('just now');
  await shot(page, 'api-keys-last-used-pinned');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'api-keys-last-used-pinned-390');
});

test("a key that answers in Resend's shapes, for Resend's SDKs, chosen in the create form and noted in the list", async ({ page }) => {
  await signUp(page, uniqueEmail());
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  const dialog = page.getByTestId('create-api-key-dialog');
  await dialog.getByLabel('Name').fill('Resend SDK');
  // The spec's answers unless asked otherwise.
  await expect(dialog.getByLabel('Answers')).toHaveValue('spec');
  await dialog.getByLabel('Answers').selectOption({ label: "Resend's shapes" });
  await expect(dialog.getByText("answers in Resend's shapes")).toBeVisible();
  await shot(page, 'api-key-create-resend-dialect', { fullPage: false });
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.getByRole('heading', { name: 'API key created' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(rowOf(page, 'Resend SDK').getByTestId('api-key-dialect')).toHaveText("Resend's answers");
  await shot(page, 'api-keys-resend-dialect');
});
