import { expect, test, type BrowserContext } from '@playwright/test';
import { shot, signUp, uniqueEmail } from './helpers';

/** Everything a page and its workers ask for that is not this service (data: and blob: are not requests to anyone). */
function watchOutsideRequests(context: BrowserContext, origin: string): string[] {
  const elsewhere: string[] = [];
  context.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) elsewhere.push(`${request.resourceType()} ${url}`);
  });
  return elsewhere;
}

test('the dashboard opens the API reference in a new tab, and the reference loads nothing from elsewhere', async ({ page, context, baseURL }) => {
  const elsewhere = watchOutsideRequests(context, baseURL!);
  // A request the page's policy refused never leaves, but it was tried: Chromium says so on the console.
  const refused: string[] = [];
  const sockets: string[] = [];
  context.on('page', (opened) => {
    opened.on('websocket', (socket) => sockets.push(socket.url()));
    opened.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
    });
  });

  // From the sidebar: a new tab, and the dashboard page stays where it was.
  await signUp(page, uniqueEmail('docs-tab'), { landOn: '/emails' });
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^API docs/ });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAccessibleName('API docs (opens in a new tab)');
  const [docs] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await expect(docs).toHaveURL(/\/docs$/);
  await expect(page).toHaveURL(/\/emails$/);
  // The emails page's own pointer to the reference opens a new tab at the Emails section too.
  await expect(page.getByTestId('emails-empty').getByRole('link', { name: /^Read the API docs/ })).toHaveAttribute('target', '_blank');
  await shot(page, 'docs-link-in-sidebar', { fullPage: false });

  await docs.waitForLoadState('networkidle');
  await expect(docs.getByRole('heading', { name: 'EU Mail API', level: 1 })).toBeVisible();
  // The try-it console talks to this service, not through anyone's proxy.
  await expect(docs.getByText(`${baseURL}/api`).first()).toBeVisible();
  await docs.getByRole('button', { name: /Emails/ }).first().click();
  await expect(docs.getByText('Send an email (or schedule it with scheduled_at)').first()).toBeAttached();
  await expect(docs.getByText('/emails/batch').first()).toBeAttached();
  await shot(docs, 'docs-reference', { fullPage: false });

  // What loads later: every section as it scrolls in, the search, and a request sent from the console.
  for (let step = 0; step < 10; step += 1) await docs.mouse.wheel(0, 8_000);
  await docs.keyboard.press('Control+k');
  await docs.keyboard.type('batch');
  await expect(docs.getByRole('dialog').getByText(/batch/i).first()).toBeVisible();
  await docs.keyboard.press('Escape');
  await docs.getByRole('button', { name: /Test Request/ }).first().click();
  const answered = docs.waitForResponse((response) => response.url() === `${baseURL}/api/health`);
  // The console's own Send button: its keyboard shortcut is lost when it arrives before the console has focus.
  await docs.getByRole('button', { name: /^Send get request to / }).first().click();
  expect((await answered).status()).toBe(200);
  await shot(docs, 'docs-console', { fullPage: false });
  await docs.waitForLoadState('networkidle');

  expect(elsewhere).toEqual([]);
  expect(refused).toEqual([]);
  expect(sockets).toEqual([]);
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
