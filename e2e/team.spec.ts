import { expect, test } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { HOME_URL, password, shot, signUp } from './helpers';
import { receiveAt, useLoopbackMail } from './loopback-mail';

/**
 * Issue 32: the owner invites a person by address from the team page; the invitation mail arrives
 * at the loopback MX (e2e/loopback-mail.ts); the invited person, without an account, signs up from
 * the link with the address filled in, lands in the inviting organization as a viewer, and sees a
 * dashboard limited to what a viewer may do. The owner then changes their role and removes them,
 * which signs them out.
 */
const DOMAIN = 'team-invite.test';

const loopback = useLoopbackMail();
test.beforeEach(() => receiveAt(loopback.dns, [DOMAIN], `mx.${DOMAIN}`));

test('invitation → sign-up → a role-limited dashboard; role change and removal by the owner', async ({ page, browser }) => {
  // Two people, two browsers and a mail round trip: longer than one page's spec.
  test.setTimeout(240_000);
  const suffix = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const owner = `owner-${suffix}@${DOMAIN}`;
  const invited = `bob-${suffix}@${DOMAIN}`;
  await signUp(page, owner, { landOn: '/team' });

  await expect(page.getByRole('heading', { level: 1, name: 'Team' })).toBeVisible();
  await expect(page.getByTestId('member-row')).toHaveCount(1);
  await expect(page.getByTestId('member-row')).toContainText(owner);
  await expect(page.getByTestId('team-alone')).toBeVisible();
  await shot(page, 'team-alone');

  // The invite dialog: an address and a role.
  await page.getByRole('button', { name: 'Invite a person' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a person' });
  await dialog.getByLabel('Email').fill(invited);
  await dialog.getByLabel('Role').selectOption('viewer');
  await expect(dialog).toContainText('Reads everything but secrets');
  await shot(page, 'team-invite-dialog', { fullPage: false });
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog).toHaveCount(0);
  const pending = page.getByTestId('invitation-row');
  await expect(pending).toHaveCount(1);
  await expect(pending).toContainText(invited);
  await expect(pending).toContainText('Viewer');
  await shot(page, 'team-pending-invitation');

  // The mail, at the loopback MX.
  await expect.poll(() => loopback.mx.messages.filter((message) => message.to.includes(invited)).length, { timeout: 30_000 }).toBe(1);
  const mail = await simpleParser(loopback.mx.messages.find((message) => message.to.includes(invited))!.raw);
  expect(mail.subject).toMatch(/^Join .+ on EU Mail$/);
  const link = /(http:\/\/\S+\/invitation\/[A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
  expect(link, mail.text).toBeDefined();

  // The invited person, in another browser: no account yet, so the page offers sign-up.
  const bobContext = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const bob = await bobContext.newPage();
  await bob.goto(link!);
  await expect(bob.getByRole('heading', { name: /^Join / })).toBeVisible();
  await expect(bob.getByTestId('invitation-sign-in')).toContainText(invited);
  await expect(bob.getByTestId('invitation-sign-in')).toContainText('viewer');
  await shot(bob, 'invitation-page');
  await bob.getByRole('link', { name: 'Create your account' }).click();
  await expect(bob).toHaveURL(/\/sign-up\?email=/);
  await expect(bob.getByLabel('Email')).toHaveValue(invited);
  await bob.getByLabel('Name').fill('Bob Viewer');
  await bob.getByLabel('Password').fill(password);
  await bob.getByRole('button', { name: 'Create account' }).click();
  await expect(bob).toHaveURL(HOME_URL);

  // In the inviting organization, as a viewer: no audit log, no privacy record, no write buttons.
  await expect(bob.getByTestId('organization-role')).toHaveText('Viewer');
  const nav = bob.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Team' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Privacy record' })).toHaveCount(0);
  await shot(bob, 'viewer-overview');
  await bob.goto('/api-keys');
  await expect(bob.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expect(bob.getByTestId('api-keys-empty')).toBeVisible();
  await expect(bob.getByRole('button', { name: 'Create API key' })).toHaveCount(0);
  await bob.goto('/domains');
  await expect(bob.getByTestId('role-note').first()).toContainText('Your role (Viewer) cannot do this here');
  await expect(bob.getByRole('button', { name: /Add domain/ }).first()).toBeDisabled();
  await shot(bob, 'viewer-domains');
  await bob.goto('/team');
  await expect(bob.getByTestId('member-row')).toHaveCount(2);
  await expect(bob.getByRole('button', { name: 'Invite a person' })).toHaveCount(0);
  await expect(bob.getByRole('combobox', { name: /Role of/ })).toHaveCount(0);
  await shot(bob, 'viewer-team');
  // The server refuses what the page does not offer.
  const refused = await bob.request.post('/api/trpc/domains.create', { data: { name: `viewer-${suffix}.example.com` } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.message).toMatch(/^Your role in this organization \(viewer\) does not allow this/);

  // The owner sees the new member, changes the role, then removes them.
  await page.reload();
  const bobRow = page.getByTestId('member-row').filter({ hasText: invited });
  await expect(bobRow).toBeVisible();
  await expect(page.getByTestId('invitation-row')).toHaveCount(0);
  await bobRow.getByRole('combobox', { name: `Role of ${invited}` }).selectOption('developer');
  await expect(bobRow.getByRole('combobox', { name: `Role of ${invited}` })).toHaveValue('developer');
  await shot(page, 'team-two-members');
  await bob.goto('/api-keys');
  await expect(bob.getByTestId('organization-role')).toHaveText('Developer');
  await expect(bob.getByRole('button', { name: 'Create API key' })).toBeVisible();

  await bobRow.getByRole('button', { name: `Remove ${invited}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove member' });
  await expect(confirm).toContainText('signed out of EU Mail on every device');
  await shot(page, 'team-remove-dialog', { fullPage: false });
  await confirm.getByRole('button', { name: 'Remove member' }).click();
  await expect(page.getByTestId('member-row')).toHaveCount(1);

  // Their session ended: the next page sends them to sign in.
  await bob.goto('/api-keys');
  await expect(bob).toHaveURL(/\/sign-in$/);
  await bobContext.close();

  // The owner reads all of it in the audit log.
  await page.goto('/audit-log');
  const rows = page.getByTestId('audit-row');
  await expect(rows.filter({ hasText: 'Removed a member' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Changed a member’s role' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Accepted an invitation' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Invited a person' })).toHaveCount(1);
  await shot(page, 'team-audit-log');
});
