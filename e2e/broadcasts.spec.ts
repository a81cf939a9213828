import { expect, test, type Page } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { domainName, trpcMutation, verifiedDomain } from './dashboard-api';
import { setPlan, shot, signUp, uniqueEmail } from './helpers';
import { receiveAt, useLoopbackMail } from './loopback-mail';

/**
 * Broadcasts end to end, delivered for real: the recipients' domains (and the owner's) have an MX
 * on loopback, the SMTP sink below, on the port the e2e server delivers to (SMTP_MX_PORT in
 * playwright.config.ts). A broadcast is written in the dashboard, previewed as each contact of the
 * audience (rendered by the server), saved, test-sent to the owner, sent to the audience after a
 * confirmation that names the subscribed contacts, and followed until it is sent; the messages
 * arrive personalised with their unsubscribe headers. A scheduled one is cancelled and deleted.
 */

const MX_HOST = 'mx.sink.test';
const READERS = 'subscribers.example.org';

const loopback = useLoopbackMail();
// The owners' and the contacts' domains both receive at the sink. Both are this spec's own: the
// server caches MX answers for a minute, and earlier specs' sign-ups mail example.com (their
// confirmation links) while it has no MX, and give example.net an MX without an address.
const OWNERS = 'owners.broadcasts.test';
const ownerEmail = (prefix: string) => uniqueEmail(prefix).replace(/@example\.com$/, `@${OWNERS}`);
test.beforeEach(() => receiveAt(loopback.dns, [OWNERS, READERS], MX_HOST));

const CONTACTS = [
  { email: `ada@${READERS}`, name: 'Ada' },
  { email: `grace@${READERS}`, name: 'Grace' },
  { email: `alan@${READERS}` },
  { email: `linus@${READERS}`, name: 'Linus', subscribed: false },
];

const SUBJECT = 'November news for {{ name | default: "you" }}';
const HTML = '<h1>Hello {{ name | default: "there" }}</h1>\n<p>This copy is for {{ email }}.</p>\n<p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>';

/** A paid account with a verified domain and an audience of three subscribed contacts and one who left. */
async function newsletterAccount(page: Page, prefix: string, tracking?: { open_tracking: boolean; click_tracking: boolean }) {
  const owner = ownerEmail(prefix);
  await signUp(page, owner, { confirmed: true });
  const domain = await verifiedDomain(page, loopback.dns, tracking);
  const audience = await trpcMutation<{ id: string }>(page, 'audiences.create', { name: 'Newsletter' });
  await trpcMutation(page, 'audiences.batchContacts', { id: audience.id, contacts: CONTACTS });
  await setPlan(page, '10k');
  return { owner, domain, audienceId: audience.id };
}

const form = (page: Page) => page.getByTestId('broadcast-form');
const preview = (page: Page) => page.getByTestId('broadcast-preview');
const previewFrame = (page: Page) => page.frameLocator('[data-testid="broadcast-preview"] [data-testid="html-preview"]');

/** The preview has caught up with the fields: nothing pending, nothing dimmed. */
async function previewSettled(page: Page) {
  await expect(preview(page).getByTestId('preview-rendering')).toHaveCount(0);
  await expect(preview(page).getByTestId('rendered-message')).not.toHaveAttribute('data-stale');
}

/** A whole-page picture with the viewport as tall as the page: the sandboxed frame is blank in a resized full-page capture. */
async function tallShot(page: Page, name: string) {
  if (!process.env.SHOTS_DIR) return;
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ width: viewport.width, height: await page.evaluate(() => document.documentElement.scrollHeight) });
  await page.waitForTimeout(300);
  await shot(page, name, { fullPage: false });
  await page.setViewportSize(viewport);
}

/** A header of a raw message, its folded lines joined (long ones such as List-Unsubscribe are folded). */
const header = (raw: string, name: string) => new RegExp(`^${name}: ?(.*)$`, 'im').exec(raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' '))?.[1];
/** What the broadcast sent an address: the service's own mail to the owner (the sign-up's confirmation link) is not. */
const messagesTo = (address: string) => loopback.mx.messages.filter((message) => message.to.includes(address) && header(message.raw, 'Subject') !== 'Confirm your address for EU Mail');

test('a broadcast is composed with a live preview, test-sent, sent to its audience and followed until it is sent', async ({ page }) => {
  // The whole life of a broadcast, real deliveries included: more than the default minute.
  test.setTimeout(150_000);
  const { owner, domain } = await newsletterAccount(page, 'e2e-broadcasts');

  // The list starts empty, with the way to the first one.
  await page.getByRole('link', { name: /^Broadcasts/ }).click();
  await expect(page).toHaveURL(/\/broadcasts$/);
  const empty = page.getByTestId('broadcasts-empty');
  await expect(empty).toContainText('No broadcasts yet');
  await shot(page, 'broadcasts-empty');
  await empty.getByRole('link', { name: 'New broadcast' }).click();
  await expect(page).toHaveURL(/\/broadcasts\/new$/);

  // Nothing to render until there is an audience, a subject and a body.
  await expect(preview(page).getByTestId('preview-placeholder')).toBeVisible();
  await expect(page.getByTestId('send-after-save')).toBeVisible();
  await expect(form(page).getByTestId('personalisation-help')).toContainText('{{ unsubscribe_url }}');
  await form(page).getByLabel('Audience').selectOption({ label: 'Newsletter · 4 contacts' });
  await form(page).getByLabel('From').fill(`Acme News <news@${domain}>`);
  await form(page).getByLabel('Subject').fill(SUBJECT);
  await form(page).getByLabel('HTML').fill(HTML);
  await form(page).getByLabel('Text').fill('Hello {{ name | default: "there" }}. Unsubscribe: {{ unsubscribe_url }}');

  // The audience's subscribed contacts are counted (the one who left is not), and the preview is
  // rendered as one of them; choosing another renders it again.
  await expect(form(page).getByTestId('audience-subscribed')).toHaveText('3 subscribed contacts');
  const contactPicker = preview(page).getByLabel('Preview as');
  await expect(contactPicker.locator('option')).toHaveCount(4);
  await expect(contactPicker.locator('option', { hasText: `linus@${READERS}` })).toHaveCount(0);
  await contactPicker.selectOption({ label: `Grace <grace@${READERS}>` });
  await expect(preview(page).getByTestId('preview-subject')).toHaveText('November news for Grace');
  await expect(previewFrame(page).getByRole('heading', { level: 1 })).toHaveText('Hello Grace');
  await expect(previewFrame(page).getByText(`This copy is for grace@${READERS}.`)).toBeVisible();
  await expect(previewFrame(page).getByRole('link', { name: 'Unsubscribe' })).toHaveAttribute('href', /\/unsubscribe\/preview$/);
  await contactPicker.selectOption({ label: `alan@${READERS}` });
  await expect(preview(page).getByTestId('preview-subject')).toHaveText('November news for you');
  await expect(previewFrame(page).getByRole('heading', { level: 1 })).toHaveText('Hello there');
  await expect(preview(page).getByTestId('preview-to')).toHaveText(`alan@${READERS}`);
  await previewSettled(page);
  await tallShot(page, 'broadcasts-new');

  // A Liquid mistake is the server's to find, in the preview before any save.
  await form(page).getByLabel('HTML').fill('<h1>Hello {{ name </h1>');
  await expect(preview(page).getByRole('alert')).toContainText('html:');
  await form(page).getByLabel('HTML').fill(HTML);
  await previewSettled(page);

  // Saved as a draft: its own page, where it is checked, tested and sent.
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page).toHaveURL(/\/broadcasts\/[0-9a-f-]{36}$/);
  const composer = page.getByTestId('broadcast-composer');
  await expect(composer.getByRole('heading', { name: 'November news for {{ name | default: "you" }}', level: 1 })).toBeVisible();
  await expect(composer.getByTestId('broadcast-status')).toHaveText('Draft');
  // The pre-flight checks come before the send button: the domain is verified and the body has its unsubscribe link.
  const preflight = page.getByTestId('preflight');
  await expect(preflight.locator('[data-testid="preflight-check"][data-check="sender_domain"]')).toHaveAttribute('data-status', 'pass', { timeout: 20_000 });
  await expect(preflight.locator('[data-testid="preflight-check"][data-check="visible_unsubscribe"]')).toHaveAttribute('data-status', 'pass');
  await expect(preflight.getByTestId('preflight-summary')).toBeVisible();
  await tallShot(page, 'broadcasts-draft');

  // A name of its own, saved; an edit not saved yet keeps the send on the saved version.
  await form(page).getByLabel('Name').fill('November newsletter');
  await expect(composer.getByTestId('unsaved-changes')).toBeVisible();
  await expect(page.getByTestId('send-unsaved')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send now' })).toBeDisabled();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(composer.getByRole('heading', { name: 'November newsletter', level: 1 })).toBeVisible();
  await expect(composer.getByTestId('unsaved-changes')).toHaveCount(0);

  // A test copy to the owner (the address offered first), rendered with sample values.
  await page.getByRole('button', { name: 'Send test' }).click();
  const testDialog = page.getByTestId('test-send-dialog');
  await expect(testDialog.getByLabel('Address 1')).toHaveValue(owner);
  await shot(page, 'broadcasts-test-dialog', { fullPage: false });
  await testDialog.getByRole('button', { name: 'Send test' }).click();
  await expect(testDialog.getByTestId('test-send-result')).toContainText(`1 test copy on the way to ${owner}`);
  await testDialog.getByRole('button', { name: 'Done' }).click();
  await expect.poll(() => messagesTo(owner).length, { timeout: 30_000 }).toBe(1);
  expect(header(messagesTo(owner)[0]!.raw, 'Subject')).toBe('[Test] November news for Sample contact');

  // Sent, after a confirmation that says to how many.
  await page.getByRole('button', { name: 'Send now' }).click();
  const sendDialog = page.getByTestId('send-dialog');
  await expect(sendDialog.getByRole('heading', { name: 'Send to 3 subscribed contacts?' })).toBeVisible();
  await shot(page, 'broadcasts-send-dialog', { fullPage: false });
  await sendDialog.getByRole('button', { name: 'Send now' }).click();

  // The page turns into the progress view and follows it until it is sent.
  const detail = page.getByTestId('broadcast-detail');
  await expect(detail).toBeVisible();
  await expect(detail).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });
  await expect(detail.getByTestId('queued-of-recipients')).toHaveText('3 of 3 recipients');
  await expect(detail.getByTestId('status-notice')).toContainText('3 messages handed to delivery');
  await expect(detail.getByTestId('count-sent')).toHaveAttribute('data-value', '3', { timeout: 30_000 });
  await expect(detail.getByTestId('count-bounced')).toHaveAttribute('data-value', '0');
  await shot(page, 'broadcasts-sent');

  // Each subscribed contact got their own copy, with the unsubscribe headers; the one who left got none.
  await expect.poll(() => loopback.mx.messages.filter((message) => message.to[0]!.endsWith(`@${READERS}`)).length, { timeout: 30_000 }).toBe(3);
  const ada = messagesTo(`ada@${READERS}`)[0]!;
  expect(header(ada.raw, 'Subject')).toBe('November news for Ada');
  expect(ada.raw).toContain('Hello Ada');
  expect(header(ada.raw, 'List-Unsubscribe')).toMatch(/\/unsubscribe\//);
  expect(header(ada.raw, 'Precedence')).toBe('bulk');
  expect(header(messagesTo(`alan@${READERS}`)[0]!.raw, 'Subject')).toBe('November news for you');
  expect(messagesTo(`linus@${READERS}`)).toHaveLength(0);

  // The list shows it sent, with its audience and counts.
  await page.getByTestId('broadcast-detail').getByRole('link', { name: 'Broadcasts' }).click();
  const row = page.getByTestId('broadcast-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('broadcast-status')).toHaveText('Sent');
  await expect(row.getByTestId('broadcast-audience')).toHaveText('Newsletter');
  await expect(row.getByTestId('broadcast-sent')).toHaveText('3');
  await expect(page.getByTestId('broadcasts-count')).toHaveText('1 broadcast');
  await shot(page, 'broadcasts-list');
});

test('a scheduled broadcast can go back to draft, be cancelled and deleted', async ({ page }) => {
  const { domain, audienceId } = await newsletterAccount(page, 'e2e-broadcasts-schedule');
  const draft = await trpcMutation<{ id: string }>(page, 'broadcasts.create', {
    audience_id: audienceId,
    from: `news@${domain}`,
    name: 'December newsletter',
    subject: SUBJECT,
    html: HTML,
  });
  await page.goto(`/broadcasts/${draft.id}`);
  const composer = page.getByTestId('broadcast-composer');
  await expect(composer.getByTestId('broadcast-status')).toHaveText('Draft');

  // Scheduled for tomorrow from the dialog (the time is UTC).
  await page.getByRole('button', { name: 'Schedule' }).click();
  const dialog = page.getByTestId('send-dialog');
  await expect(dialog.getByRole('heading', { name: 'Schedule the broadcast' })).toBeVisible();
  await expect(dialog.getByTestId('send-dialog-summary')).toContainText('3 subscribed contacts');
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 11);
  await dialog.getByLabel('Send at (UTC)').fill(`${tomorrow}09:30`);
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(dialog).toBeHidden();
  await expect(composer.getByTestId('broadcast-status')).toHaveText('Scheduled');
  await expect(page.getByTestId('scheduled-notice')).toContainText('Scheduled for');
  await expect(page.getByTestId('scheduled-notice')).toContainText('09:30 UTC');
  await tallShot(page, 'broadcasts-scheduled');

  // Back to a draft, then scheduled again and cancelled.
  await page.getByRole('button', { name: 'Back to draft' }).click();
  await expect(composer.getByTestId('broadcast-status')).toHaveText('Draft');
  await expect(page.getByTestId('scheduled-notice')).toHaveCount(0);
  await page.getByRole('button', { name: 'Schedule' }).click();
  await dialog.getByLabel('Send at (UTC)').fill(`${tomorrow}10:00`);
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(composer.getByTestId('broadcast-status')).toHaveText('Scheduled');
  await page.getByTestId('scheduled-notice').getByRole('button', { name: 'Cancel broadcast' }).click();
  const cancelDialog = page.getByTestId('cancel-broadcast-dialog');
  await expect(cancelDialog).toContainText('Nothing has been sent');
  await cancelDialog.getByRole('button', { name: 'Cancel broadcast' }).click();

  // Cancelled: the progress view says so, and it can be deleted.
  const detail = page.getByTestId('broadcast-detail');
  await expect(detail).toHaveAttribute('data-status', 'cancelled');
  await expect(detail.getByTestId('status-notice')).toContainText('Nothing was sent');
  await shot(page, 'broadcasts-cancelled');
  await page.getByRole('button', { name: 'Delete broadcast' }).click();
  await page.getByTestId('delete-broadcast-dialog').getByRole('button', { name: 'Delete broadcast' }).click();
  await expect(page).toHaveURL(/\/broadcasts$/);
  await expect(page.getByTestId('broadcasts-empty')).toBeVisible();
});

test('past the review allowance a broadcast is held, says why and where it stopped, and can be cancelled', async ({ page }) => {
  test.setTimeout(150_000);
  await signUp(page, ownerEmail('e2e-broadcasts-held'), { confirmed: true });
  const domain = await verifiedDomain(page, loopback.dns);
  await setPlan(page, '10k');
  // 501 readers on a domain whose MX has no address: nothing is delivered, the fan-out is what is watched.
  loopback.dns.mx('readers.example.org', 'mx.nowhere.test');
  const audience = await trpcMutation<{ id: string }>(page, 'audiences.create', { name: 'Everyone' });
  const readers = Array.from({ length: 501 }, (_, index) => ({ email: `reader-${index}@readers.example.org` }));
  await trpcMutation(page, 'audiences.batchContacts', { id: audience.id, contacts: readers });
  const broadcast = await trpcMutation<{ id: string }>(page, 'broadcasts.create', { audience_id: audience.id, from: `news@${domain}`, name: 'Launch', subject: 'We launched', html: HTML });
  await trpcMutation(page, 'broadcasts.send', { id: broadcast.id });

  // A new account's first list sends stop at the allowance until review: the page says so.
  await page.goto(`/broadcasts/${broadcast.id}`);
  const detail = page.getByTestId('broadcast-detail');
  await expect(detail).toHaveAttribute('data-status', 'held', { timeout: 60_000 });
  await expect(detail.getByTestId('hold-reason')).toHaveAttribute('data-reason', 'review');
  await expect(detail.getByTestId('hold-reason')).toContainText('Held for review after 500 recipients');
  await expect(detail.getByTestId('hold-reason')).toContainText('resumes where it stopped once approved');
  await expect(detail.getByTestId('queued-of-recipients')).toHaveText('500 of 501 recipients');
  await expect(detail.getByTestId('live-indicator')).toBeVisible();
  // A review hold is lifted by the review, not by trying again.
  await expect(detail.getByRole('button', { name: 'Resume now' })).toHaveCount(0);
  await shot(page, 'broadcasts-held');

  // Cancelled: what had not been handed over is withdrawn.
  await detail.getByRole('button', { name: 'Cancel broadcast' }).click();
  const dialog = page.getByTestId('cancel-broadcast-dialog');
  await expect(dialog).toContainText('Contacts not reached yet get nothing');
  await dialog.getByRole('button', { name: 'Cancel broadcast' }).click();
  await expect(detail).toHaveAttribute('data-status', 'cancelled');
  await expect(detail.getByTestId('status-notice')).toContainText('withdrawn');
  await expect(detail.getByRole('button', { name: 'Delete broadcast' })).toBeVisible();
  await shot(page, 'broadcasts-held-cancelled');
});

test('opens and clicks by proxies and scanners are counted apart from people\'s', async ({ page }) => {
  test.setTimeout(120_000);
  const { domain, audienceId } = await newsletterAccount(page, 'e2e-broadcasts-machines', { open_tracking: true, click_tracking: true });
  const draft = await trpcMutation<{ id: string }>(page, 'broadcasts.create', {
    audience_id: audienceId,
    from: `news@${domain}`,
    name: 'Machines and people',
    subject: 'Links',
    html: '<p><a href="https://shop.example.org/a">A</a> <a href="https://shop.example.org/b">B</a> <a href="{{ unsubscribe_url }}">Unsubscribe</a></p>',
  });
  await trpcMutation(page, 'broadcasts.send', { id: draft.id });
  await expect.poll(() => loopback.mx.messages.filter((message) => message.to[0]!.endsWith(`@${READERS}`) && message.raw.includes('Subject: Links')).length, { timeout: 30_000 }).toBe(3);
  /** The tracking URLs of the copy a contact got. */
  const urlsOf = async (address: string) => {
    const html = String((await simpleParser(messagesTo(address).find((message) => message.raw.includes('Subject: Links'))!.raw)).html);
    return { pixel: /src="([^"]*\/t\/o\/[^"]+)"/.exec(html)![1]!, links: [...html.matchAll(/href="([^"]*\/t\/c\/[^"]+)"/g)].map((match) => match[1]!) };
  };
  const fetchAs = async (url: string, userAgent: string) => {
    const response = await page.request.get(url, { headers: { 'user-agent': userAgent }, maxRedirects: 0 });
    expect([200, 302]).toContain(response.status());
  };
  const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
  const ada = await urlsOf(`ada@${READERS}`);
  const grace = await urlsOf(`grace@${READERS}`);
  const alan = await urlsOf(`alan@${READERS}`);
  // Past the seconds after delivery in which any click is a scanner's.
  await page.waitForTimeout(10_500);
  // Ada: Apple's proxy, then Ada on her phone, who clicks. Grace: only Apple's proxy. Alan: only a scanner, on every link.
  await fetchAs(ada.pixel, 'Mozilla/5.0');
  await fetchAs(ada.pixel, iphone);
  await fetchAs(ada.links[0]!, iphone);
  await fetchAs(grace.pixel, 'Mozilla/5.0');
  await fetchAs(alan.pixel, 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)');
  for (const link of alan.links) await fetchAs(link, 'Mozilla/4.0 (compatible; ms-office; MSOffice 16)');

  await page.goto(`/broadcasts/${draft.id}`);
  const detail = page.getByTestId('broadcast-detail');
  await expect(detail.getByTestId('count-opened')).toHaveAttribute('data-value', '3', { timeout: 20_000 });
  await expect(detail.getByTestId('count-opened-machine')).toHaveText('2 by machines only');
  await expect(detail.getByTestId('count-opened-bar')).toHaveAttribute('data-human', '1');
  await expect(detail.getByTestId('count-clicked')).toHaveAttribute('data-value', '2');
  await expect(detail.getByTestId('count-clicked-machine')).toHaveText('1 by machines only');
  await shot(page, 'broadcasts-machines');

  await page.goto('/broadcasts');
  await expect(page.getByTestId('broadcast-opened-machine')).toHaveText('2 by machines');
  await shot(page, 'broadcasts-list-machines');
});

test('the pre-flight and a refused test copy lead to the page that fixes them, in words without API calls', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const owner = ownerEmail('e2e-broadcasts-fix');
  await signUp(page, owner, { confirmed: true });
  const audience = await trpcMutation<{ id: string }>(page, 'audiences.create', { name: 'Newsletter' });
  await trpcMutation(page, 'audiences.batchContacts', { id: audience.id, contacts: CONTACTS });
  const name = domainName();
  const draft = await trpcMutation<{ id: string }>(page, 'broadcasts.create', { audience_id: audience.id, from: `news@${name}`, subject: SUBJECT, html: HTML });

  // From a domain the account does not have: the check says to add it, and its link opens the
  // Domains page's dialog with the name filled in.
  await page.goto(`/broadcasts/${draft.id}`);
  const preflight = page.getByTestId('preflight');
  const senderCheck = preflight.locator('[data-testid="preflight-check"][data-check="sender_domain"]');
  await expect(senderCheck).toHaveAttribute('data-status', 'fail', { timeout: 20_000 });
  await expect(senderCheck).toContainText('add it on the Domains page');
  await expect(preflight).not.toContainText(/\b(GET|POST) \//);
  await senderCheck.getByRole('link', { name: `Add ${name}` }).click();
  const dialog = page.getByTestId('add-domain-dialog');
  await expect(dialog.getByLabel('Domain', { exact: true })).toHaveValue(name);
  await dialog.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const domainPage = page.url();

  // Registered, not verified: the checks say to publish its records, and link its page.
  await page.goto(`/broadcasts/${draft.id}`);
  await expect(senderCheck).toContainText('publish the records shown on its domain page, then click Verify now there');
  await expect(preflight.locator('[data-testid="preflight-check"][data-check="dkim"]')).toContainText('its domain page gives it split into 255-byte strings');
  await expect(preflight).not.toContainText(/\b(GET|POST) \//);
  await tallShot(page, 'broadcasts-preflight-fix');

  // A test copy is refused for the same reason; the alert links the Domains page.
  await page.getByRole('button', { name: 'Send test' }).click();
  const testDialog = page.getByTestId('test-send-dialog');
  await testDialog.getByRole('button', { name: 'Send test' }).click();
  await expect(testDialog.getByTestId('error-message')).toHaveAttribute('data-error-code', 'DOMAIN_NOT_VERIFIED');
  await expect(testDialog.getByTestId('error-fix')).toHaveAttribute('href', '/domains');
  await shot(page, 'broadcasts-test-refused', { fullPage: false });
  await testDialog.getByRole('button', { name: 'Cancel' }).click();

  await senderCheck.getByRole('link', { name: `Open ${name}` }).click();
  await expect(page).toHaveURL(domainPage);
});
