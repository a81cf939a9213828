import { expect, test } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { createApiKey, HOME_URL, shot, signUp } from './helpers';
import { receiveAt, useLoopbackMail } from './loopback-mail';

/**
 * The owner's address, confirmed with the link the service mails (docs/security.md, "Abuse:
 * unconfirmed owners"). The sign-up's domain has its MX on loopback: the loopback DNS server the
 * e2e server resolves through names an exchange whose address is 127.0.0.1 (the service's own mail
 * is delivered as customers' is), and the SMTP sink listens on the port the server delivers to
 * (SMTP_MX_PORT in playwright.config.ts): e2e/loopback-mail.ts.
 */
const OWNER_DOMAIN = 'owner-confirm.test';

const loopback = useLoopbackMail();
test.beforeEach(() => receiveAt(loopback.dns, [OWNER_DOMAIN], `mx.${OWNER_DOMAIN}`));

test('a new account is asked to confirm its address: live sends wait, the banner resends (throttled), the mailed link confirms once', async ({ page, request }) => {
  const owner = `ada-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@${OWNER_DOMAIN}`;
  await signUp(page, owner);

  // Every dashboard page says so, naming the address.
  const banner = page.getByTestId('owner-confirmation-banner');
  await expect(banner).toContainText(`We mailed a link to ${owner}`);
  await expect(banner).toContainText('test keys work meanwhile');
  await expect(page.getByTestId('owner-confirmed')).toHaveCount(0);
  await shot(page, 'confirm-banner');

  // A live send is refused with the reason (no domain needed to see it: the account is asked first).
  const key = await createApiKey(page, 'Production');
  const send = () => request.post('/api/emails', { headers: { Authorization: `Bearer ${key}` }, data: { from: `Ada <ada@${OWNER_DOMAIN}>`, to: owner, subject: 'Hello', text: 'Hi' } });
  const refused = await send();
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ code: 'ACCOUNT_RESTRICTED', error: expect.stringContaining("owner's email address is confirmed") });

  // The sign-up's link went out a moment ago: another one within the minute is refused, and the banner says why.
  await expect(banner).toBeVisible();
  await page.getByTestId('resend-confirmation').click();
  await expect(banner.getByRole('alert')).toContainText(/less than a minute ago; ask again in \d+ s/);
  await shot(page, 'confirm-resend-throttled');

  await expect.poll(() => loopback.mx.messages.filter((message) => message.to.includes(owner)).length, { timeout: 30_000 }).toBe(1);
  const mail = await simpleParser(loopback.mx.messages.find((message) => message.to.includes(owner))!.raw);
  expect(mail.subject).toBe('Confirm your address for EU Mail');
  const link = /(http:\/\/\S+\/confirm-address\/[A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
  expect(link, mail.text).toBeDefined();

  // Opening the link asks; the button confirms.
  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'Confirm your address' })).toContainText('Confirm your address');
  await expect(page.getByText(owner)).toBeVisible();
  await shot(page, 'confirm-page');
  await page.getByRole('button', { name: 'Confirm my address' }).click();
  await expect(page.getByRole('heading', { name: 'Address confirmed' })).toBeVisible();
  await shot(page, 'confirm-done');
  await page.getByRole('link', { name: 'Open the dashboard' }).click();
  await expect(page).toHaveURL(HOME_URL);
  await expect(page.getByTestId('owner-confirmed')).toHaveText('Address confirmed');
  await expect(page.getByTestId('owner-confirmation-banner')).toHaveCount(0);
  await shot(page, 'confirm-confirmed-dashboard');

  // The account is no longer what stops a send (the sender's domain is, here).
  expect((await (await send()).json()).code).toBe('DOMAIN_NOT_VERIFIED');

  // Used once: opening it again says so.
  const again = await page.goto(link!);
  expect(again?.status()).toBe(410);
  await expect(page.getByRole('heading', { name: 'This link was used already' })).toBeVisible();
});
