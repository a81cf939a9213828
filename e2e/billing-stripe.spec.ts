import { expect, test } from '@playwright/test';
import { E2E_STRIPE_API_PORT, E2E_STRIPE_WEB_PORT } from './loopback-ports';
import { shot, signUp, uniqueEmail } from './helpers';
import { ownServerUrl, startOwnServer, type OwnServer } from './own-server';
import { startStripeStandIn, type StripeStandIn } from '../test/support/stripe-stand-in';

/**
 * Issue 33 with Stripe configured: an upgrade from Free goes through the stand-in's checkout page
 * and the plan changes when its signed webhook arrives; the invoice is listed on the billing page.
 * The run's shared web server has no payment provider (e2e/billing.spec.ts walks the request
 * flow), so this spec starts its own, from the same build, with the STRIPE_* variables pointing
 * at the loopback stand-in.
 */
const WEB_URL = ownServerUrl(E2E_STRIPE_WEB_PORT);
const SECRET_KEY = 'sk_test_e2e';
const WEBHOOK_SECRET = 'whsec_e2e';

let standIn: StripeStandIn;
let server: OwnServer | undefined;

test.use({ baseURL: WEB_URL });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  standIn = await startStripeStandIn({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, webhookUrl: `${WEB_URL}/stripe/webhook`, port: E2E_STRIPE_API_PORT });
  server = await startOwnServer({ port: E2E_STRIPE_WEB_PORT, dataDir: '.data-e2e-stripe', env: standIn.env, what: 'the Stripe-configured web server' });
});

test.afterAll(async () => {
  await server?.stop();
  await standIn?.close();
});

test('an upgrade from Free is paid on the checkout page, the plan changes on the webhook, and the invoice is listed', async ({ page }) => {
  await signUp(page, uniqueEmail('stripe'), { landOn: '/billing' });
  const billing = page.getByTestId('billing');
  await expect(billing).toHaveAttribute('data-plan', 'free');
  // Before the first checkout there is no invoice yet, and no portal (no Stripe customer).
  await expect(page.getByTestId('invoices')).toContainText('No invoices yet');
  await expect(page.getByTestId('customer-portal')).toHaveCount(0);

  await page.getByTestId('plans').getByRole('button', { name: /^Upgrade to / }).first().click();
  const dialog = page.getByTestId('change-plan-dialog');
  await expect(dialog.getByTestId('upgrade-is-payment')).toContainText('secure payment page');
  await shot(page, 'billing-stripe-upgrade-dialog', { fullPage: false });
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();

  // The stand-in's checkout page, as Stripe's hosted one: the parameters the service sent are Stripe's business.
  await expect(page).toHaveURL(new RegExp(`^${standIn.url}/checkout/cs_test_`));
  await expect(page.getByRole('heading', { name: 'Stand-in checkout' })).toBeVisible();
  const session = [...standIn.sessions.values()].at(-1)!;
  expect(session.params).toMatchObject({ mode: 'subscription', automatic_tax: { enabled: 'true' }, tax_id_collection: { enabled: 'true' }, billing_address_collection: 'required' });
  await shot(page, 'billing-stripe-checkout-page');
  await page.getByRole('button', { name: 'Pay' }).click();

  await expect(page).toHaveURL(new RegExp(`^${WEB_URL}/billing\\?checkout=cs_test_`));
  await expect(billing).toHaveAttribute('data-plan', '10k');
  await expect(page.getByTestId('invoice-row')).toHaveCount(1);
  await expect(page.getByTestId('invoice-row')).toContainText('EUM-0001');
  await expect(page.getByTestId('customer-portal')).toBeVisible();
  await shot(page, 'billing-stripe-after-payment');

  // A renewal fails: every page says until when mail goes on and links to the billing page; paying clears it.
  const subscription = [...standIn.subscriptions.values()].at(-1)! as { id: string; customer: string };
  const failed = await standIn.sendEvent('invoice.payment_failed', {
    id: 'in_renewal_failed',
    object: 'invoice',
    customer: subscription.customer,
    billing_reason: 'subscription_cycle',
    status: 'open',
    parent: { subscription_details: { subscription: subscription.id } },
  });
  expect(failed.status).toBe(200);
  await page.goto('/emails');
  const banner = page.getByTestId('payment-banner');
  await expect(banner).toHaveAttribute('data-restricted', 'false');
  await expect(banner).toContainText('Mail keeps going until');
  await expect(page.getByRole('link', { name: 'Update payment' })).toHaveAttribute('href', '/billing');
  await shot(page, 'billing-stripe-renewal-failed-banner', { fullPage: false });
  expect((await standIn.payInvoice(subscription.id)).status).toBe(200);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(banner).toHaveCount(0);
});
