import fs from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import nodemailer from 'nodemailer';
import { E2E_DNS_PORT } from './loopback-ports';
import { startDnsServer, type DnsServer } from '../test/support/dns';
import { SMTP_GATEWAY_PORT } from './gateway-ports';
import { createApiKey, shot, signUp, uniqueEmail } from './helpers';
import { verifiedDomain } from './dashboard-api';
import { INDIGO_BODY, indigoShare } from './frame-paint';

/**
 * The dashboard shows live emails only (a signed-in person acts in live mode). Live emails need
 * a verified sender domain and a recipient domain that accepts mail, so the test publishes both on
 * the loopback DNS server the web server resolves through (DNS_SERVERS=127.0.0.1:E2E_DNS_PORT). No
 * recipients' MX runs here: the live emails stay on their way (queued, or whatever the pipeline
 * makes of them), so only what the screens must show is asserted, never a final delivery status.
 */
let dns: DnsServer;

test.beforeAll(async () => {
  dns = await startDnsServer({ port: E2E_DNS_PORT });
});

test.afterAll(() => dns?.close());

test.beforeEach(() => {
  dns.clear();
  // The recipients' domain: an MX, so live sends pass the deliverability check.
  dns.mx('example.net', 'mx.example.net');
});

/** `POST /api/emails` as an application would send it, with an API key (no session cookie). */
async function send(request: APIRequestContext, key: string, body: Record<string, unknown>): Promise<string> {
  const response = await request.post('/api/emails', { headers: { Authorization: `Bearer ${key}` }, data: body });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).id;
}

const INVOICE_HTML = `<!doctype html>
<html><head><style>h1 { color: #4338ca; font-family: sans-serif } p { font-family: sans-serif }</style></head>
<body><h1>Invoice #1042</h1><p>Thank you for your order. The total is <strong>€42.00</strong>.</p>
<img src="https://images.example.org/logo.png" alt="Acme logo" width="120" height="40"></body></html>`;

const rows = (page: Page) => page.getByTestId('email-row');
const rowOf = (page: Page, subject: string) => rows(page).filter({ has: page.getByRole('link', { name: subject, exact: true }) });

test('live emails are listed, filtered through the URL, and open with their timeline and HTML', async ({ page, request }) => {
  await signUp(page, uniqueEmail('e2e-emails'), { confirmed: true });

  // The page is no longer a placeholder: an empty account points to the API and to keys.
  await page.getByRole('link', { name: /^Emails/ }).click();
  await expect(page).toHaveURL(/\/emails$/);
  await expect(page.getByRole('link', { name: 'Emails', exact: true })).toHaveAttribute('aria-current', 'page');
  const empty = page.getByTestId('emails-empty');
  await expect(empty).toContainText('No emails yet');
  await expect(empty.getByRole('link', { name: 'Read the API docs' })).toHaveAttribute('href', '/docs#tag/emails');
  await expect(empty.getByRole('link', { name: 'Create an API key' })).toHaveAttribute('href', '/api-keys');
  await expect(page.getByTestId('coming-soon')).toHaveCount(0);
  await expect(page.getByTestId('email-filters')).toHaveCount(0);
  await shot(page, 'list-empty');

  const domain = await verifiedDomain(page, dns);
  await page.goto('/api-keys');
  const testKey = await createApiKey(page, 'CI', { mode: 'Test' });
  const liveKey = await createApiKey(page, 'Production');

  // A test-mode email is accepted and kept apart: the test key sees it, the dashboard does not.
  const testId = await send(request, testKey, { from: `Acme <hello@${domain}>`, to: 'ada@example.net', subject: 'Sent in test mode', html: '<p>Test</p>' });
  const testEmail = async () => (await request.get(`/api/emails/${testId}`, { headers: { Authorization: `Bearer ${testKey}` } })).json();
  await expect.poll(async () => (await testEmail()).status, { timeout: 20_000 }).toBe('delivered');
  expect((await testEmail()).events.map((event: { type: string }) => event.type)).toEqual(['email.queued', 'email.sent', 'email.delivered']);

  // Live emails: a page and a bit of notifications, then three that the test looks at.
  const batch = await request.post('/api/emails/batch', {
    headers: { Authorization: `Bearer ${liveKey}` },
    data: Array.from({ length: 18 }, (_, index) => ({
      from: `Acme <hello@${domain}>`,
      to: `user${index}@example.net`,
      subject: `Notification ${index + 1}`,
      text: 'Something happened.',
      tags: [{ name: 'category', value: 'notification' }],
    })),
  });
  expect(batch.status(), await batch.text()).toBe(200);
  expect((await batch.json()).data.every((item: { id?: string }) => item.id)).toBe(true);

  await send(request, liveKey, {
    from: `Acme <hello@${domain}>`,
    to: ['linus@example.net', 'ken@example.net'],
    subject: 'Welcome aboard',
    html: '<p>Welcome!</p>',
    tags: [{ name: 'category', value: 'onboarding' }],
  });
  const inTwoHours = new Date(Date.now() + 2 * 3_600_000).toISOString();
  const scheduledId = await send(request, liveKey, {
    from: `Acme <hello@${domain}>`,
    to: 'margaret@example.net',
    subject: 'Weekly digest',
    text: 'Your week in review.',
    tags: [{ name: 'category', value: 'digest' }],
    scheduled_at: inTwoHours,
  });
  const invoiceId = await send(request, liveKey, {
    from: `Acme Billing <billing@${domain}>`,
    to: ['ada@example.net'],
    cc: ['grace@example.net'],
    reply_to: `support@${domain}`,
    subject: 'Your invoice #1042',
    html: INVOICE_HTML,
    text: 'Invoice #1042\n\nThank you for your order. The total is €42.00.',
    tags: [
      { name: 'category', value: 'invoice' },
      { name: 'customer', value: 'c_1042' },
    ],
    headers: { 'X-Entity-Ref-ID': 'inv-1042' },
    attachments: [{ filename: 'invoice-1042.pdf', content: Buffer.from('%PDF-1.4 a tiny invoice').toString('base64'), content_type: 'application/pdf' }],
  });

  // The list: newest first, one page of 20, then the rest on demand. The test email is not in it.
  await page.getByRole('link', { name: /^Emails/ }).click();
  await expect(rows(page)).toHaveCount(20);
  await expect(rows(page).first()).toHaveAttribute('data-email-id', invoiceId);
  await expect(page.getByTestId('emails-count')).toHaveText('20 emails shown');
  await expect(page.getByText('Sent in test mode')).toHaveCount(0);

  const invoice = rowOf(page, 'Your invoice #1042');
  await expect(invoice).toContainText(`Acme Billing <billing@${domain}>`);
  await expect(invoice).toContainText('ada@example.net');
  await expect(invoice).toContainText('category:invoice');
  // No SMTP server answers here: the status is whatever the pipeline made of it so far.
  await expect(invoice.getByTestId('email-status')).toHaveAttribute('data-status', /^[a-z]+$/);
  await expect(rowOf(page, 'Welcome aboard')).toContainText('linus@example.net+1');
  const digest = rowOf(page, 'Weekly digest');
  await expect(digest.getByTestId('email-status')).toHaveText('Scheduled');
  await expect(digest).toContainText('in 2 hours');
  await shot(page, 'list-with-emails');

  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(rows(page)).toHaveCount(21);
  await expect(page.getByTestId('emails-count')).toHaveText('21 emails');
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);

  // Filters live in the URL. Status applies at once.
  const filters = page.getByTestId('email-filters');
  await filters.getByLabel('Status').selectOption({ label: 'Scheduled' });
  await expect(page).toHaveURL(/\/emails\?status=scheduled$/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('Weekly digest');

  // Text filters on Enter; a cc recipient counts as a recipient.
  await filters.getByRole('button', { name: 'Clear', exact: true }).click();
  await expect(page).toHaveURL(/\/emails$/);
  await filters.getByLabel('Recipient').fill('GRACE@example.net');
  await filters.getByLabel('Recipient').press('Enter');
  await expect(page).toHaveURL(/\/emails\?to=GRACE%40example\.net$/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('Your invoice #1042');

  // Tags: name:value, or a bare name; combined with the other filters.
  await filters.getByLabel('Recipient').fill('');
  await filters.getByLabel('Tag').fill('category:onboarding');
  await filters.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/\/emails\?tag=category%3Aonboarding$/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('Welcome aboard');

  await filters.getByLabel('Tag').fill('customer');
  await filters.getByRole('button', { name: 'Apply' }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('Your invoice #1042');
  await filters.getByLabel('Status').selectOption({ label: 'Scheduled' });
  await expect(page).toHaveURL(/\/emails\?status=scheduled&tag=customer$/);
  await expect(page.getByTestId('emails-no-match')).toContainText('No emails match these filters');
  await shot(page, 'list-no-match');

  // Back undoes a filter change.
  await page.goBack();
  await expect(page).toHaveURL(/\/emails\?tag=customer$/);
  await expect(filters.getByLabel('Status')).toHaveValue('');
  await expect(rows(page)).toHaveCount(1);

  await filters.getByLabel('Status').selectOption({ label: 'Scheduled' });
  await page.getByTestId('emails-no-match').getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/emails$/);
  await expect(rows(page).first()).toHaveAttribute('data-email-id', invoiceId);

  // A shared link opens with its filters filled in.
  await page.goto('/emails?status=scheduled&tag=category%3Adigest');
  await expect(page.getByTestId('email-filters').getByLabel('Status')).toHaveValue('scheduled');
  await expect(page.getByTestId('email-filters').getByLabel('Tag')).toHaveValue('category:digest');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('Weekly digest');
  await shot(page, 'list-filtered');

  // The invoice's page.
  await page.goto('/emails?tag=category%3Ainvoice');
  await page.getByRole('link', { name: 'Your invoice #1042', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/emails/${invoiceId}$`));
  const detail = page.getByTestId('email-detail');
  await expect(detail.getByRole('heading', { name: 'Your invoice #1042', level: 1 })).toBeVisible();
  await expect(detail.getByTestId('email-route')).toContainText(`Acme Billing <billing@${domain}>`);
  await expect(detail.getByTestId('email-route')).toContainText('ada@example.net');
  await expect(detail.getByTestId('envelope-cc')).toHaveText('grace@example.net');
  await expect(detail.getByTestId('envelope-reply-to')).toHaveText(`support@${domain}`);
  await expect(detail.getByTestId('envelope-bcc')).toHaveCount(0);
  await expect(detail.getByTestId('email-id')).toHaveText(invoiceId);

  const queued = detail.locator('[data-testid="timeline-event"][data-type="email.queued"]');
  await expect(queued).toHaveCount(1);
  await expect(queued.getByTestId('event-label')).toHaveText('Queued');

  // The HTML, drawn in a sandbox: no scripts, no same-origin, no network until asked for.
  const iframe = detail.getByTestId('html-preview');
  await expect(iframe).toHaveAttribute('sandbox', '');
  await expect(iframe).toHaveAttribute('srcdoc', /Content-Security-Policy/);
  const preview = page.frameLocator('[data-testid="html-preview"]');
  await expect(preview.getByRole('heading', { name: 'Invoice #1042' })).toBeVisible();
  await expect(preview.getByText('Thank you for your order.')).toBeVisible();
  await expect(detail.getByTestId('remote-content-notice')).toContainText('Remote images are blocked');

  await expect(detail.getByTestId('tags-row')).toHaveCount(2);
  await expect(detail.getByTestId('tags')).toContainText('c_1042');
  await expect(detail.getByTestId('headers')).toContainText('X-Entity-Ref-ID');
  await expect(detail.getByTestId('headers')).toContainText('inv-1042');
  const attachment = detail.getByTestId('attachment');
  await expect(attachment).toContainText('invoice-1042.pdf');
  await expect(attachment).toContainText('23 bytes');
  await expect(attachment).toContainText('application/pdf');
  await expect(attachment).not.toHaveAttribute('data-expired');

  // The file downloads with the session (no API key), byte for byte; without a session it is refused.
  const [download] = await Promise.all([page.waitForEvent('download'), attachment.getByRole('link', { name: 'Download invoice-1042.pdf' }).click()]);
  expect(download.suggestedFilename()).toBe('invoice-1042.pdf');
  expect((await fs.readFile((await download.path())!)).toString()).toBe('%PDF-1.4 a tiny invoice');
  const href = (await attachment.getByRole('link', { name: 'Download invoice-1042.pdf' }).getAttribute('href'))!;
  const anonymous = await request.get(href);
  expect(anonymous.status()).toBe(401);
  expect(await anonymous.json()).toEqual({ error: expect.any(String), code: 'UNAUTHORIZED' });

  // While it is on its way the page refetches it every few seconds.
  const status = await detail.getByTestId('email-status').first().getAttribute('data-status');
  if (status === 'queued' || status === 'sending' || status === 'sent') {
    await expect(detail.getByTestId('live-indicator')).toBeVisible();
    await page.waitForRequest(/\/api\/trpc\/emails\.get/, { timeout: 5_000 });
  }
  await shot(page, 'detail');

  await detail.getByRole('tab', { name: 'Text' }).click();
  await expect(detail.getByTestId('text-version')).toContainText('The total is €42.00.');
  await expect(detail.getByTestId('html-preview')).toHaveCount(0);
  await shot(page, 'detail-text');
  await detail.getByRole('tab', { name: 'HTML' }).click();
  await expect(preview.getByRole('heading', { name: 'Invoice #1042' })).toBeVisible();

  // An email due in a few seconds: its page fills by itself once the pipeline takes it.
  const soonId = await send(request, liveKey, {
    from: `Acme <hello@${domain}>`,
    to: 'ida@example.net',
    subject: 'Your trial ends today',
    text: 'Upgrade to keep sending.',
    scheduled_at: new Date(Date.now() + 8_000).toISOString(),
  });
  await page.goto(`/emails/${soonId}`);
  await expect(page.getByTestId('email-status')).toHaveText('Scheduled');
  await expect(page.getByTestId('schedule-panel')).toBeVisible();
  await expect(page.getByTestId('timeline-event')).toHaveCount(1);
  await expect(page.locator('[data-testid="timeline-event"]:not([data-type="email.scheduled"])').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('email-status')).not.toHaveText('Scheduled');
  await expect(page.getByTestId('schedule-panel')).toHaveCount(0);
  await expect(page.getByTestId('timeline')).toContainText('ida@example.net');
  await shot(page, 'detail-filled');

  // The scheduled email: moved, then canceled.
  await page.goto(`/emails/${scheduledId}`);
  const panel = page.getByTestId('schedule-panel');
  await expect(panel).toContainText('Goes out on');
  await expect(page.locator('[data-testid="timeline-event"][data-type="email.scheduled"]')).toHaveCount(1);
  const later = new Date(Date.now() + 2 * 86_400_000);
  later.setUTCSeconds(0, 0);
  await panel.getByLabel('New send time (UTC)').fill(later.toISOString().slice(0, 16));
  await panel.getByRole('button', { name: 'Reschedule' }).click();
  await expect(panel.getByTestId('reschedule-feedback')).toHaveText('Rescheduled.');
  await expect(page.locator('[data-testid="timeline-event"][data-type="email.scheduled"]')).toHaveCount(2);
  await expect(page.getByTestId('envelope-scheduled')).toContainText('in 2 days');
  await shot(page, 'detail-scheduled');

  // A time in the past is refused with the server's reason.
  await panel.getByLabel('New send time (UTC)').fill('2020-01-01T10:00');
  await panel.getByRole('button', { name: 'Reschedule' }).click();
  await expect(panel.getByTestId('error-message')).toContainText('must be in the future');

  await panel.getByRole('button', { name: 'Cancel email' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel this email' });
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(confirm).toBeHidden();
  await panel.getByRole('button', { name: 'Cancel email' }).click();
  await confirm.getByRole('button', { name: 'Cancel email' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId('email-detail').getByTestId('email-status')).toHaveText('Canceled');
  await expect(page.locator('[data-testid="timeline-event"][data-type="email.canceled"]')).toHaveCount(1);
  await expect(page.getByTestId('schedule-panel')).toHaveCount(0);
  await expect(page.getByTestId('live-indicator')).toHaveCount(0);
  await expect(page.getByText('Was scheduled for')).toBeVisible();

  // An unknown id, and a test-mode email, are not found here.
  await page.goto(`/emails/${testId}`);
  await expect(page.getByTestId('email-not-found')).toContainText('Email not found');
  await page.goto('/emails/not-an-id');
  await expect(page.getByTestId('email-not-found')).toBeVisible();
});

test('in test mode the dashboard lists test emails, and a timeline plays out by itself', async ({ page, request }) => {
  await signUp(page, uniqueEmail('e2e-emails-test'), { confirmed: true });
  // Domains and keys are live state: set up in live mode, then switch the dashboard to test mode.
  const domain = await verifiedDomain(page, dns);
  await page.goto('/api-keys');
  const testKey = await createApiKey(page, 'CI', { mode: 'Test' });
  const liveKey = await createApiKey(page, 'Production');
  await send(request, liveKey, { from: `Acme <hello@${domain}>`, to: 'alan@example.net', subject: 'A live email', text: 'Live.' });

  await page.goto('/emails');
  await page.getByRole('group', { name: 'Data shown' }).getByRole('button', { name: 'Test mode' }).click();
  await expect(page.getByRole('group', { name: 'Data shown' }).getByRole('button', { name: 'Test mode' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('emails-empty')).toContainText('test API key');

  // Due in a few seconds, with opens and clicks tracked: sent, delivered, opened, clicked follow.
  const id = await send(request, testKey, {
    from: `Acme <hello@${domain}>`,
    to: 'ada@example.net',
    subject: 'Simulated delivery',
    html: '<h1>Hello Ada</h1><p>See our <a href="https://example.org/pricing">pricing</a>.</p>',
    tracking: { opens: true, clicks: true },
    scheduled_at: new Date(Date.now() + 5_000).toISOString(),
  });
  await page.reload();
  await expect(page.getByTestId('email-row')).toHaveCount(1);
  await expect(page.getByTestId('email-row')).toContainText('Simulated delivery');
  await expect(page.getByText('A live email')).toHaveCount(0);

  await page.getByRole('link', { name: 'Simulated delivery', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/emails/${id}$`));
  await expect(page.getByTestId('email-status')).toHaveText('Scheduled');
  let loads = 0;
  page.on('load', () => (loads += 1));

  const types = page.getByTestId('timeline-event');
  await expect(page.locator('[data-testid="timeline-event"][data-type="email.clicked"]')).toHaveCount(1, { timeout: 30_000 });
  await expect(types).toHaveCount(5);
  expect(await types.evaluateAll((items) => items.map((item) => item.getAttribute('data-type')))).toEqual([
    'email.scheduled',
    'email.sent',
    'email.delivered',
    'email.opened',
    'email.clicked',
  ]);
  await expect(page.getByTestId('email-status')).toHaveText('Delivered');
  await expect(page.getByTestId('live-indicator')).toHaveCount(0);
  await expect(page.locator('[data-testid="timeline-event"][data-type="email.clicked"]')).toContainText('https://example.org/pricing');
  await expect(page.locator('[data-testid="timeline-event"][data-type="email.delivered"]')).toContainText('ada@example.net');
  expect(loads).toBe(0);
  // A link is not remote content: nothing to unblock.
  await expect(page.frameLocator('[data-testid="html-preview"]').getByRole('heading', { name: 'Hello Ada' })).toBeVisible();
  await expect(page.getByTestId('remote-content-notice')).toHaveCount(0);
  await shot(page, 'detail-test-mode');

  // bounced@ and complained@ play a bounce and a complaint, each explained beside the raw response.
  const bouncedId = await send(request, testKey, { from: `Acme <hello@${domain}>`, to: ['bounced@example.net', 'complained@example.net'], subject: 'Simulated bounce', text: 'Hi' });
  await page.goto(`/emails/${bouncedId}`);
  const complained = page.locator('[data-testid="timeline-event"][data-type="email.complained"]');
  await expect(complained).toHaveCount(1, { timeout: 30_000 });
  const bounced = page.locator('[data-testid="timeline-event"][data-type="email.bounced"]');
  await expect(bounced.getByTestId('bounce-note')).toHaveAttribute('data-class', 'mailbox_unknown');
  await expect(bounced.getByTestId('bounce-note')).toContainText('Mailbox unknown');
  await expect(bounced.getByTestId('bounce-explanation')).toContainText("The address does not exist at the recipient's provider");
  await expect(bounced.getByTestId('event-details')).toContainText('550 5.1.1 simulated bounce');
  await expect(complained.getByTestId('bounce-note')).toContainText('Spam complaint');
  await shot(page, 'detail-bounce-explained');
});

/** Hands a message to the e2e server's SMTP gateway as a mail client would, and returns the email id of its reply. */
async function relay(key: string, message: { from: string; to: string; subject: string; text: string }): Promise<string> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: SMTP_GATEWAY_PORT,
    secure: false,
    requireTLS: true,
    auth: { user: 'apikey', pass: key },
    // The gateway's self-signed certificate (no SMTP_TLS_CERT on the e2e server).
    tls: { rejectUnauthorized: false },
  });
  try {
    const info = await transport.sendMail(message);
    const id = /queued as (\S+)/.exec(info.response)?.[1];
    expect(id, info.response).toBeTruthy();
    return id!;
  } finally {
    transport.close();
  }
}

test('an email relayed through the SMTP gateway says "via SMTP" in the list and on its page', async ({ page, request }) => {
  await signUp(page, uniqueEmail('e2e-smtp-email'), { confirmed: true });
  const domain = await verifiedDomain(page, dns);
  await page.goto('/api-keys');
  const key = await createApiKey(page, 'WordPress', { permission: 'Sending access' });

  const relayedId = await relay(key, { from: `Acme Shop <shop@${domain}>`, to: 'ada@example.net', subject: 'Your password reset', text: 'Reset it within the hour.' });
  const apiId = await send(request, key, { from: `Acme Shop <shop@${domain}>`, to: 'ada@example.net', subject: 'Sent through the API', text: 'Hello.' });

  await page.getByRole('link', { name: /^Emails/ }).click();
  await expect(rows(page)).toHaveCount(2);
  const relayed = rowOf(page, 'Your password reset');
  await expect(relayed).toHaveAttribute('data-email-id', relayedId);
  await expect(relayed.getByTestId('email-source')).toHaveText('via SMTP');
  await expect(rowOf(page, 'Sent through the API')).toHaveAttribute('data-email-id', apiId);
  await expect(rowOf(page, 'Sent through the API').getByTestId('email-source')).toHaveCount(0);
  await shot(page, 'list-via-smtp');

  await relayed.getByRole('link', { name: 'Your password reset', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/emails/${relayedId}$`));
  const header = page.getByTestId('email-detail');
  await expect(header.getByRole('heading', { name: 'Your password reset', level: 1 })).toBeVisible();
  await expect(header.getByTestId('email-source')).toHaveText('via SMTP');
  await expect(header.getByTestId('email-source')).toHaveAttribute('data-source', 'smtp');
  // Sent by the relay, logged in with the key named WordPress.
  await expect(header.getByTestId('envelope-sent-by')).toContainText('SMTP relay');
  await expect(header.getByTestId('envelope-sent-by').getByRole('link', { name: 'WordPress' })).toHaveAttribute('href', '/api-keys');
  await shot(page, 'detail-via-smtp');

  await page.goto(`/emails/${apiId}`);
  await expect(page.getByRole('heading', { name: 'Sent through the API', level: 1 })).toBeVisible();
  await expect(page.getByTestId('email-source')).toHaveCount(0);
});

test('an email page always draws its HTML, shows the raw source to copy or download, and names the key that sent it', async ({ page, context, request, baseURL }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page, uniqueEmail('e2e-email-inspect'));
  const key = await createApiKey(page, 'Checkout service', { mode: 'Test' });
  const html = `<!doctype html><html><body style="margin:0;${INDIGO_BODY}"><h1>Order shipped</h1><img src="${baseURL}/icon.svg" alt="" width="24"></body></html>`;
  const id = await send(request, key, { from: 'Acme <orders@sandbox.localhost>', to: 'ada@example.net', subject: 'Your order has shipped', html, text: 'Your order has shipped.' });
  await context.addCookies([{ name: 'eumail_mode', value: 'test', url: baseURL }]);
  await page.goto(`/emails/${id}`);
  const detail = page.getByTestId('email-detail');

  // Which key sent it, by its name, with the way to the keys.
  const sentBy = detail.getByTestId('envelope-sent-by');
  await expect(sentBy.getByRole('link', { name: 'Checkout service' })).toHaveAttribute('href', '/api-keys');
  await expect(sentBy).toContainText('API key');

  // Drawn where a person looks, and never blank while a new document (remote images) replaces it.
  const frame = () => detail.getByTestId('html-preview');
  await expect(page.frameLocator('[data-testid="html-preview"]').getByRole('heading', { name: 'Order shipped' })).toBeVisible();
  await frame().scrollIntoViewIfNeeded();
  await expect.poll(() => indigoShare(page, frame())).toBeGreaterThan(0.9);
  await detail.getByRole('button', { name: 'Load remote images' }).click();
  // Sampled as a person sees it for a second while the new document replaces the shown one: never blank.
  const shares: number[] = [];
  for (const start = Date.now(); Date.now() - start < 1_000; ) shares.push(await indigoShare(page, frame()));
  expect(Math.min(...shares)).toBeGreaterThan(0.9);
  await expect(detail.getByTestId('remote-content-notice')).toContainText('Remote images are shown');
  await expect(detail.getByTestId('html-preview-pane')).not.toHaveAttribute('data-pending');
  await expect(page.frameLocator('[data-testid="html-preview"]').locator('img')).toHaveJSProperty('complete', true);
  expect(await indigoShare(page, frame())).toBeGreaterThan(0.9);
  await detail.getByRole('tab', { name: 'Text' }).click();
  await detail.getByRole('tab', { name: 'HTML' }).click();
  await expect.poll(() => indigoShare(page, frame())).toBeGreaterThan(0.9);

  // The raw source: the MIME message as it would go, signed for the sandbox; copied whole, or downloaded.
  await detail.getByRole('tab', { name: 'Raw' }).click();
  const raw = detail.getByTestId('raw-source');
  await expect(raw).toContainText('Subject: Your order has shipped');
  await expect(raw).toContainText('d=sandbox.localhost;');
  await expect(raw).toContainText('Content-Type: multipart/alternative');
  await expect(detail.getByTestId('raw-source-state')).toContainText('Test mode: never sent');
  const source = (await raw.textContent())!;
  expect(source.startsWith('DKIM-Signature: v=1;')).toBe(true);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await detail.getByRole('button', { name: /^Copy raw source/ }).click();
  await expect(detail.getByRole('button', { name: /^Copied/ })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(source);
  const [download] = await Promise.all([page.waitForEvent('download'), detail.getByRole('link', { name: 'Download .eml' }).click()]);
  expect(download.suggestedFilename()).toBe(`email-${id}.eml`);
  expect((await fs.readFile((await download.path())!)).toString()).toBe(source);
  const anonymous = await request.get(`/emails/${id}/source`);
  expect(anonymous.status()).toBe(401);
  await shot(page, 'detail-raw-source');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(raw).toBeVisible();
  await shot(page, 'detail-raw-source-390');
});
