import { expect, test } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { trpcMutation, verifiedDomain } from './dashboard-api';
import { shot, signUp, uniqueEmail } from './helpers';
import { receiveAt, useLoopbackMail } from './loopback-mail';

/**
 * Double opt-in end to end (issue 37 item 2, docs/consent.md): a contact asked to confirm shows as
 * pending on its page and in the list, a re-send inside 10 minutes is refused in the server's words,
 * the confirmation email arrives at a real SMTP sink on loopback, and its link's page asks first and
 * confirms on the button; the contact's page then shows it subscribed, and its consent history both steps.
 */

const MX_HOST = 'mx.sink.test';
const OWNERS = 'owners.doi.test';
const READERS = 'readers.doi.test';
const loopback = useLoopbackMail();
test.beforeEach(() => receiveAt(loopback.dns, [OWNERS, READERS], MX_HOST));

test('a pending contact is shown as such, its link confirms it on the button, and its page then shows it subscribed', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueEmail('e2e-doi').replace(/@example\.com$/, `@${OWNERS}`), { confirmed: true });
  const domain = await verifiedDomain(page, loopback.dns);
  const address = `ada-${Date.now()}@${READERS}`;
  const contact = await trpcMutation<{ id: string; pending: boolean }>(page, 'contacts.create', {
    email: address,
    first_name: 'Ada',
    double_opt_in: true,
    confirmation: { from: `Acme News <news@${domain}>` },
  });
  expect(contact.pending).toBe(true);

  await page.goto('/contacts');
  const row = page.locator(`[data-testid="contact-row"][data-email="${address}"]`);
  await expect(row.getByTestId('contact-pending')).toHaveText('Pending confirmation');
  await expect(row.getByTestId('contact-unsubscribed')).toHaveCount(0);

  await page.goto(`/contacts/${contact.id}`);
  const pending = page.getByTestId('contact-pending-section');
  await expect(pending).toContainText('has not clicked the link yet');
  await shot(page, 'contact-pending');
  // The first email went a moment ago: a re-send now is refused, in the server's words.
  await pending.getByTestId('resend-confirmation').click();
  await expect(pending.getByTestId('error-message')).toContainText('10 minutes');
  await shot(page, 'contact-pending-resend-refused');

  await expect.poll(() => loopback.mx.messages.filter((message) => message.to.includes(address)).length, { timeout: 30_000 }).toBe(1);
  const mail = await simpleParser(loopback.mx.messages.find((message) => message.to.includes(address))!.raw);
  expect(mail.subject).toMatch(/^Confirm your subscription to /);
  const link = /(http:\/\/localhost:\d+\/confirm-subscription\/[A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
  expect(link).toBeTruthy();

  // Opening the link asks; it changes nothing until the button is pressed.
  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'Confirm your subscription' })).toBeVisible();
  await expect(page.getByText(address)).toBeVisible();
  await shot(page, 'confirm-subscription-ask');
  await page.getByRole('button', { name: 'Confirm my subscription' }).click();
  await expect(page.getByRole('heading', { name: 'Subscription confirmed' })).toBeVisible();
  await shot(page, 'confirm-subscription-done');
  // A second press is harmless.
  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'Already confirmed' })).toBeVisible();

  await page.goto(`/contacts/${contact.id}`);
  await expect(page.getByTestId('contact-detail')).toBeVisible();
  await expect(page.getByTestId('contact-pending-section')).toHaveCount(0);
  await expect(page.getByTestId('unsubscribed-state')).toHaveText('Off');
  await shot(page, 'contact-confirmed');

  // Its consent history: asked through the dashboard, then confirmed from the link by the person.
  const history = page.getByTestId('contact-consent');
  await history.scrollIntoViewIfNeeded();
  await expect(history.getByTestId('consent-entry').first()).toHaveAttribute('data-action', 'pending');
  await expect(history.getByTestId('consent-entry').first()).toHaveAttribute('data-via', 'dashboard');
  await expect(history.locator('[data-testid="consent-entry"][data-action="confirmed"]')).toHaveAttribute('data-via', 'confirmation');
  await expect(history).toContainText('Confirmed');
  await expect(history).toContainText('Confirmation link');
  await shot(page, 'contact-consent-history');
});
