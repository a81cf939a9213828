import { expect, test, type Page } from '@playwright/test';
import { domainName, trpcMutation } from './dashboard-api';
import { shot, signUp, uniqueEmail } from './helpers';

/**
 * At 390 px, a phone's width, every list keeps each row's actions within reach: visible, or
 * reached by scrolling inside the table, never clipped off the screen or covered. The same holds
 * for the DNS record values and their copy buttons on a domain's page.
 */

const PHONE = { width: 390, height: 844 };

/** What cannot be reached: the page scrolling sideways, and each control of the tables' rows that, brought into view, is still off the screen or covered. */
async function unreachableControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide`);
    const controls = document.querySelectorAll<HTMLElement>('table tbody :is(a, button, input, select, [role="switch"])');
    for (const control of controls) {
      control.scrollIntoView({ block: 'center', inline: 'nearest' });
      const box = control.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const name = `${control.tagName.toLowerCase()} "${(control.getAttribute('aria-label') ?? control.textContent ?? '').trim().slice(0, 40)}"`;
      if (box.left < -1 || box.right > width + 1) {
        problems.push(`${name} lies at ${Math.round(box.left)}-${Math.round(box.right)} px`);
        continue;
      }
      // The first line of a link that wraps: the middle of its whole box may be the space between lines.
      const line = control.getClientRects()[0] ?? box;
      const hit = document.elementFromPoint(line.left + line.width / 2, line.top + line.height / 2);
      if (!hit || !(control === hit || control.contains(hit))) problems.push(`${name} is covered or clipped`);
    }
    return problems;
  });
}

async function expectReachable(page: Page, shotName: string) {
  await shot(page, shotName);
  expect(await unreachableControls(page)).toEqual([]);
}

test('at 390 px every list’s row actions and the DNS values’ copy buttons are within reach', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, uniqueEmail('e2e-narrow'), { landOn: '/' });
  // One of everything, through the dashboard's own API (a test key sends the email: nothing leaves).
  const domain = await trpcMutation<{ id: string }>(page, 'domains.create', { name: domainName() });
  const { key: testKey } = await trpcMutation<{ key: string }>(page, 'apiKeys.create', { name: 'A key with a rather long name for a phone', mode: 'test' });
  const audience = await trpcMutation<{ id: string }>(page, 'audiences.create', { name: 'Newsletter readers of the autumn campaign' });
  await trpcMutation(page, 'audiences.createContact', { id: audience.id, email: 'a.reader.with.a.long.address@example.net', name: 'A reader' });
  await trpcMutation(page, 'webhooks.create', { url: 'http://127.0.0.1:9/a/rather/long/path/for/the/receiver', events: ['*'] });
  await trpcMutation(page, 'templates.create', { name: 'Welcome to the service, with a long name', subject: 'Welcome', html: '<p>Hi</p>' });
  await trpcMutation(page, 'suppressions.create', { email: 'someone.who.asked.not.to.be.mailed@example.net' });
  const sent = await page.request.post('/api/emails', {
    headers: { Authorization: `Bearer ${testKey}` },
    data: { from: 'Onboarding <onboarding@sandbox.localhost>', to: ['a.reader.with.a.long.address@example.net'], subject: 'A first email with a long subject', text: 'Hi' },
  });
  expect(sent.status(), await sent.text()).toBe(200);

  await page.setViewportSize(PHONE);
  const lists: Array<[path: string, row: string, name: string]> = [
    ['/domains', 'domain-row', 'narrow-domains'],
    ['/api-keys', 'api-key-row', 'narrow-api-keys'],
    ['/webhooks', 'webhook-row', 'narrow-webhooks'],
    ['/audiences', 'audience-row', 'narrow-audiences'],
    [`/audiences/${audience.id}`, 'contact-row', 'narrow-contacts'],
    ['/templates', 'template-row', 'narrow-templates'],
    ['/suppressions', 'suppression-row', 'narrow-suppressions'],
  ];
  for (const [path, row, name] of lists) {
    await page.goto(path);
    await expect(page.getByTestId(row).first()).toBeVisible();
    await expectReachable(page, name);
  }

  // The email is a test-mode email: the list shows it in test mode.
  await page.context().addCookies([{ name: 'eumail_mode', value: 'test', url: page.url() }]);
  await page.goto('/emails');
  await expect(page.getByTestId('email-row').first()).toBeVisible();
  await expectReachable(page, 'narrow-emails');
  await page.context().clearCookies({ name: 'eumail_mode' });

  // A domain's records: each value's copy button on the screen, or reached by scrolling the table.
  await page.goto(`/domains/${domain.id}`);
  await expect(page.getByTestId('dns-record')).toHaveCount(4);
  await expectReachable(page, 'narrow-domain-records');
  await page.getByTestId('dns-record').first().scrollIntoViewIfNeeded();
  await shot(page, 'narrow-domain-records-view', { fullPage: false });
});
