import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_DNS_PORT } from './loopback-ports';
import { startDnsServer, type DnsServer } from '../test/support/dns';
import { startWebhookReceiver, type ReceivedHook, type WebhookReceiver } from '../test/support/webhook-receiver';
import { createApiKey, shot, signUp, uniqueEmail } from './helpers';
import { trpcMutation, verifiedDomain } from './dashboard-api';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/**
 * Webhooks end to end: an endpoint added in the dashboard receives, on a real HTTP server on
 * loopback (allowed by WEBHOOK_ALLOW_PRIVATE_CIDRS=127.0.0.0/8 in playwright.config.ts), the
 * signed events of a test-mode email, and its page shows the deliveries. A test-mode email still
 * needs a verified sender domain, published on the loopback DNS server as in emails.spec.ts.
 */
let dns: DnsServer;
let receiver: WebhookReceiver;

test.beforeAll(async () => {
  dns = await startDnsServer({ port: E2E_DNS_PORT });
});

test.afterAll(() => dns?.close());

test.beforeEach(async () => {
  dns.clear();
  receiver = await startWebhookReceiver();
});

test.afterEach(() => receiver?.close());

/** `POST /api/emails` as an application would send it, with an API key (no session cookie). */
async function send(request: APIRequestContext, key: string, body: Record<string, unknown>): Promise<string> {
  const response = await request.post('/api/emails', { headers: { Authorization: `Bearer ${key}` }, data: body });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).id;
}

interface VerifiedEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** The requests the receiver got that verify with this secret, parsed; a bad signature counts as none. */
function verified(hooks: ReceivedHook[], secret: string): VerifiedEvent[] {
  return hooks.flatMap((hook) => {
    try {
      return [{ id: String(hook.headers['webhook-id']), ...receiver.verify(hook, secret) }];
    } catch {
      return [];
    }
  });
}

const deliveryRows = (page: Page) => page.getByTestId('delivery-row');
const deliveryRow = (page: Page, type: string, status: string) =>
  deliveryRows(page).filter({ has: page.getByRole('button', { name: type, exact: true }) }).filter({ has: page.locator(`[data-testid="delivery-status"][data-status="${status}"]`) });

test('an endpoint added in the dashboard receives signed events, and its page shows deliveries, tests, replays and the secret', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signUp(page, uniqueEmail('e2e-webhooks'));

  // The page is built: an empty account explains webhooks.
  await page.getByRole('link', { name: /^Webhooks/ }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByRole('link', { name: 'Webhooks', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('coming-soon')).toHaveCount(0);
  await expect(page.getByTestId('webhooks-empty')).toContainText('No webhook endpoints yet');
  await shot(page, 'webhooks-empty');

  // The server's complaints show under their fields: no events, then a private address.
  await page.getByTestId('webhooks-empty').getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByTestId('create-webhook-dialog');
  await expect(dialog.getByRole('heading', { name: 'Add endpoint' })).toBeVisible();
  const url = dialog.getByLabel('Endpoint URL');
  await url.fill('http://10.0.0.1/hook');
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(dialog.getByTestId('event-picker').getByTestId('field-error')).toContainText('name at least one event type');
  await expect(dialog.getByTestId('event-catalogue')).toBeVisible();
  await shot(page, 'webhooks-create-no-events', { fullPage: false });
  await dialog.getByLabel('All events (*)').check();
  await expect(dialog.getByTestId('event-catalogue')).toBeHidden();
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(dialog.getByTestId('event-picker').getByTestId('field-error')).toHaveCount(0);
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByTestId('field-error')).toContainText('10.0.0.1');
  await shot(page, 'webhooks-create-invalid', { fullPage: false });

  // A loopback receiver, allowed in this setup.
  const endpoint = `http://127.0.0.1:${receiver.port}/hook`;
  await url.fill(endpoint);
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(dialog.getByRole('heading', { name: 'Endpoint added' })).toBeVisible();
  await expect(dialog.getByTestId('created-webhook-url')).toHaveText(endpoint);
  const secretInput = dialog.getByTestId('webhook-secret');
  await expect(secretInput).toHaveValue(/^whsec_/);
  const secret = await secretInput.inputValue();
  await dialog.getByRole('button', { name: 'Copy' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await shot(page, 'webhooks-created', { fullPage: false });
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId('webhook-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(endpoint);
  await expect(row.getByTestId('webhook-events')).toHaveText('All events');
  await expect(row.getByTestId('webhook-health')).toContainText('No attempts');
  const webhookId = (await row.getAttribute('data-webhook-id'))!;

  // A test-mode email, sent with a test key made in the dashboard.
  const domain = await verifiedDomain(page, dns);
  await page.goto('/api-keys');
  const testKey = await createApiKey(page, 'CI', { mode: 'Test' });
  await send(request, testKey, { from: `Acme <hello@${domain}>`, to: 'ada@example.net', subject: 'Webhooks in test mode', text: 'Hello' });

  // Its events reach the receiver signed with the secret shown, marked as test-mode events.
  const emailEvents = () => verified(receiver.received, secret).filter((event) => event.type.startsWith('email.') && event.data.mode === 'test');
  await expect.poll(() => emailEvents().map((event) => event.type), { timeout: 30_000 }).toEqual(expect.arrayContaining(['email.queued', 'email.sent', 'email.delivered']));
  expect(receiver.received.every((hook) => hook.path === '/hook')).toBe(true);

  // The list now has attempts to judge the endpoint by.
  await page.goto('/webhooks');
  await expect(row.getByTestId('webhook-health')).toHaveAttribute('data-rate', '100');
  await expect(row.getByTestId('webhook-health')).toContainText('100% succeeded');
  await shot(page, 'webhooks-list');

  // The endpoint's page lists the deliveries, succeeded.
  await row.getByRole('link', { name: endpoint, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/webhooks/${webhookId}$`));
  await expect(page.getByRole('heading', { name: endpoint, level: 1 })).toBeVisible();
  const delivered = deliveryRow(page, 'email.delivered', 'succeeded');
  await expect(async () => {
    await page.getByTestId('deliveries').getByRole('button', { name: 'Refresh' }).click();
    await expect(delivered).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(deliveryRow(page, 'email.queued', 'succeeded')).toHaveCount(1);
  await expect(delivered.getByTestId('delivery-response')).toHaveText('200');

  // Unfolded: the body it sent, and the attempt.
  await delivered.getByRole('button', { name: 'email.delivered' }).click();
  const panel = page.getByTestId('delivery-panel');
  await expect(panel.getByTestId('delivery-payload')).toContainText('"type": "email.delivered"');
  await expect(panel.getByTestId('delivery-payload')).toContainText('"mode": "test"');
  await expect(panel.getByTestId('delivery-attempt')).toHaveCount(1);
  await expect(panel.getByTestId('delivery-attempt')).toContainText('HTTP 200');
  await expect(panel.getByTestId('delivery-attempt')).toContainText('Scheduled');
  const eventId = (await panel.getByTestId('delivery-event-id').textContent())!;
  expect(emailEvents().find((event) => event.type === 'email.delivered')?.id).toBe(eventId);
  await shot(page, 'webhooks-detail-delivery');

  // A replay sends the same event again (same webhook-id), signed afresh.
  const before = receiver.received.length;
  await panel.getByRole('button', { name: 'Replay' }).click();
  await expect(panel.getByTestId('attempt-outcome')).toHaveAttribute('data-succeeded', 'true');
  await expect(panel.getByTestId('attempt-outcome')).toContainText('answered 200');
  await expect(panel.getByTestId('delivery-attempt')).toHaveCount(2);
  await expect(panel.locator('[data-testid="delivery-attempt"][data-trigger="replay"]')).toHaveCount(1);
  const replayed = verified(receiver.received.slice(before), secret);
  expect(replayed.map((event) => event.id)).toContain(eventId);

  // A test event, answered by the receiver.
  const testSection = page.getByTestId('test-event');
  await testSection.getByRole('button', { name: 'Send test event' }).click();
  await expect(testSection.getByTestId('attempt-outcome')).toHaveAttribute('data-succeeded', 'true');
  await expect(testSection.getByTestId('attempt-outcome-summary')).toContainText(/answered 200 in \d+ ms/);
  await expect(testSection.getByTestId('response-excerpt')).toHaveText('ok');
  expect(verified(receiver.received, secret).some((event) => event.type === 'webhook.test')).toBe(true);
  await expect(deliveryRow(page, 'webhook.test', 'succeeded')).toHaveCount(1);
  await shot(page, 'webhooks-detail-tested');

  // When the receiver fails, the test says so with the answer.
  receiver.answerWith(() => ({ status: 503, body: 'down for maintenance' }));
  await testSection.getByRole('button', { name: 'Send test event' }).click();
  await expect(testSection.getByTestId('attempt-outcome')).toHaveAttribute('data-succeeded', 'false');
  await expect(testSection.getByTestId('attempt-outcome')).toContainText('answered 503');
  await expect(testSection.getByTestId('response-excerpt')).toHaveText('down for maintenance');

  // A delivery that failed and waits for its retry cannot be replayed yet.
  await send(request, testKey, { from: `Acme <hello@${domain}>`, to: 'ada@example.net', subject: 'While the receiver is down', text: 'Hello' });
  const waiting = deliveryRows(page).filter({ has: page.locator('[data-testid="delivery-status"][data-status="pending"]') }).first();
  await expect(async () => {
    await page.getByTestId('deliveries').getByRole('button', { name: 'Refresh' }).click();
    await expect(waiting).toBeVisible({ timeout: 2_000 });
    await expect(waiting.getByTestId('delivery-response')).toHaveText('503', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await waiting.getByRole('button').click();
  const waitingPanel = page.getByTestId('delivery-panel');
  await expect(waitingPanel.getByRole('button', { name: 'Replay' })).toBeDisabled();
  await expect(waitingPanel.getByTestId('replay-pending-note')).toContainText('Still being retried');
  await expect(waitingPanel.getByTestId('delivery-attempt').first()).toContainText('down for maintenance');
  await shot(page, 'webhooks-detail-pending');

  // The status filter asks the server for one status.
  const filter = page.getByTestId('deliveries').getByLabel('Status');
  await filter.selectOption({ label: 'Failed' });
  await expect(deliveryRows(page)).toHaveCount(1);
  await expect(deliveryRow(page, 'webhook.test', 'failed')).toHaveCount(1);
  await filter.selectOption({ label: 'All statuses' });
  receiver.answerWith(() => ({ status: 200 }));

  // The secret: hidden, revealed on demand, then rotated after a confirmation.
  const secretSection = page.getByTestId('signing-secret');
  await expect(secretSection.getByTestId('webhook-secret')).toHaveCount(0);
  await secretSection.getByRole('button', { name: 'Reveal' }).click();
  await expect(secretSection.getByTestId('webhook-secret')).toHaveValue(secret);
  await secretSection.getByRole('button', { name: 'Rotate secret' }).click();
  const rotate = page.getByTestId('rotate-secret-dialog');
  await expect(rotate).toContainText('The old secret stops working on the next delivery');
  await shot(page, 'webhooks-rotate-confirm', { fullPage: false });
  await rotate.getByRole('button', { name: 'Rotate secret' }).click();
  await expect(rotate.getByTestId('webhook-secret')).toHaveValue(/^whsec_/);
  const rotated = await rotate.getByTestId('webhook-secret').inputValue();
  expect(rotated).not.toBe(secret);
  await rotate.getByRole('button', { name: 'Done' }).click();
  await expect(secretSection.getByTestId('webhook-secret')).toHaveValue(rotated);
  // The next event is signed with the new secret only.
  const beforeRotatedTest = receiver.received.length;
  await testSection.getByRole('button', { name: 'Send test event' }).click();
  await expect(testSection.getByTestId('attempt-outcome')).toHaveAttribute('data-succeeded', 'true');
  expect(verified(receiver.received.slice(beforeRotatedTest), rotated).filter((event) => event.type === 'webhook.test')).toHaveLength(1);
  expect(verified(receiver.received.slice(beforeRotatedTest), secret)).toHaveLength(0);
  await secretSection.getByRole('button', { name: 'Hide' }).click();
  await expect(secretSection.getByTestId('webhook-secret')).toHaveCount(0);

  // Pages of 20: enough test events (through the dashboard's own API) for a second page.
  for (let ping = 0; ping < 12; ping += 1) await trpcMutation(page, 'webhooks.test', { id: webhookId });
  await page.reload();
  await expect(page.getByTestId('deliveries-count')).toHaveText('20 deliveries shown');
  await expect(deliveryRows(page)).toHaveCount(20);
  await page.getByTestId('deliveries').getByRole('button', { name: 'Load more' }).click();
  await expect(page.getByTestId('deliveries-count')).toHaveText(/^2\d deliveries$/);
  await expect(page.getByTestId('deliveries').getByRole('button', { name: 'Load more' })).toHaveCount(0);
  await shot(page, 'webhooks-detail');

  // Edit: a long URL (it must wrap, not widen the page) and only the email events now. The form starts from the endpoint as it is.
  await page.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByTestId('edit-webhook-dialog');
  await expect(edit.getByLabel('Endpoint URL')).toHaveValue(endpoint);
  await expect(edit.getByLabel('All events (*)')).toBeChecked();
  const longEndpoint = `${endpoint}/customers/acme-industries-international/integrations/eumail-delivery-notifications?token=${'a1b2c3d4'.repeat(8)}`;
  await edit.getByLabel('Endpoint URL').fill(longEndpoint);
  await edit.getByLabel('All events (*)').uncheck();
  await edit.getByRole('button', { name: 'Select all email events' }).click();
  await expect(edit.getByTestId('event-count')).toHaveText('13 event types selected');
  await shot(page, 'webhooks-edit', { fullPage: false });
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  const detail = page.getByTestId('webhook-detail');
  await expect(detail.getByRole('heading', { level: 1 })).toHaveText(longEndpoint);
  await expect(detail.getByTestId('webhook-events')).toContainText('email.queued');
  await expect(detail.getByTestId('webhook-events')).toContainText('email.clicked');
  await expect(detail.getByTestId('webhook-events')).not.toContainText('domain.created');
  const noHorizontalScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  expect(await noHorizontalScroll()).toBe(true);
  await shot(page, 'webhooks-detail-edited', { fullPage: false });

  // The list, with the failures of the last 24 hours counted and the last one in words.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
  await expect(row).toContainText(longEndpoint);
  await expect(row.getByTestId('webhook-events')).toContainText('email.queued');
  await expect(row.getByTestId('webhook-events')).toContainText('+11 more');
  await expect(row.getByTestId('webhook-last-failure')).toContainText('answered 503');
  await expect(row.getByTestId('webhook-health')).not.toHaveAttribute('data-rate', '100');
  expect(await noHorizontalScroll()).toBe(true);
  await shot(page, 'webhooks-list-failures');
  await row.getByRole('link', { name: longEndpoint, exact: true }).click();

  // Delete, after a confirmation: back to an empty list.
  await page.getByRole('button', { name: 'Delete endpoint' }).click();
  const remove = page.getByTestId('delete-webhook-dialog');
  await remove.getByRole('button', { name: 'Cancel' }).click();
  await expect(remove).toBeHidden();
  await page.getByRole('button', { name: 'Delete endpoint' }).click();
  await remove.getByRole('button', { name: 'Delete endpoint' }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByTestId('webhooks-empty')).toBeVisible();
  await page.goto(`/webhooks/${webhookId}`);
  await expect(page.getByTestId('webhook-not-found')).toContainText('Endpoint not found');
});
