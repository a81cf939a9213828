import { expect, test, type Browser, type Page } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { trpcMutation } from './dashboard-api';
import { createApiKey, HOME_URL, password, shot, signUp } from './helpers';
import { receiveAt, useLoopbackMail } from './loopback-mail';

type LoopbackMail = ReturnType<typeof useLoopbackMail>;

/**
 * Issue 32: the pages show only what the role may do (the table the server checks), and a person
 * in two organizations switches between them; ownership passes from one member to another.
 */
const DOMAIN = 'team-roles.test';

const loopback = useLoopbackMail();
test.beforeEach(() => receiveAt(loopback.dns, [DOMAIN], `mx.${DOMAIN}`));

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

const INVITATION_LINK = /(http:\/\/\S+\/invitation\/[A-Za-z0-9_-]{43})/;

/** The invitation link mailed to `to`, read at the loopback MX (a person who signed up also has their confirmation mail there). */
async function invitationLink(mail: LoopbackMail, to: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        for (const message of mail.mx.messages.filter((m) => m.to.includes(to))) link ??= INVITATION_LINK.exec((await simpleParser(message.raw)).text ?? '')?.[1];
        return link;
      },
      { timeout: 30_000 },
    )
    .toBeDefined();
  return link!;
}

/** A person signing up in a browser of their own, from `/sign-up` or from an invitation link's "Create your account". */
async function newPerson(browser: Browser, origin: string, email: string, name: string, link?: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  if (link) {
    await page.goto(link);
    await page.getByRole('link', { name: 'Create your account' }).click();
    await expect(page.getByLabel('Email')).toHaveValue(email);
  } else {
    await page.goto('/sign-up');
    await page.getByLabel('Email').fill(email);
  }
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(HOME_URL);
  return page;
}

test('a viewer sees no write controls on the keys, domains and contacts pages; as a developer, theirs appear', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const suffix = unique();
  const owner = `owner-${suffix}@${DOMAIN}`;
  const invited = `vera-${suffix}@${DOMAIN}`;
  await signUp(page, owner);
  await createApiKey(page, 'Production');
  const domain = await trpcMutation<{ id: string }>(page, 'domains.create', { name: `roles-${suffix}.example.com` });
  const audience = await trpcMutation<{ id: string }>(page, 'audiences.create', { name: 'Readers' });
  await trpcMutation(page, 'audiences.createContact', { id: audience.id, email: 'reader@example.com' });
  const template = await trpcMutation<{ id: string }>(page, 'templates.create', { name: 'Receipt', subject: 'Your receipt', html: '<p>Thanks</p>' });
  const broadcast = await trpcMutation<{ id: string }>(page, 'broadcasts.create', { audience_id: audience.id, from: `news@roles-${suffix}.example.com`, name: 'Launch', subject: 'We launched', html: '<p>Hello</p>' });
  await trpcMutation(page, 'team.invite', { email: invited, role: 'viewer' });

  const vera = await newPerson(browser, new URL(page.url()).origin, invited, 'Vera Viewer', await invitationLink(loopback, invited));
  await expect(vera.getByTestId('organization-role')).toHaveText('Viewer');

  // API keys: the key is listed, without rename or revoke, and no key can be made.
  await vera.goto('/api-keys');
  await expect(vera.getByTestId('api-key-row').filter({ hasText: 'Production' })).toHaveCount(1);
  await expect(vera.getByRole('button', { name: 'Revoke Production' })).toHaveCount(0);
  await expect(vera.getByRole('button', { name: 'Rename Production' })).toHaveCount(0);
  await expect(vera.getByRole('button', { name: 'Create API key' })).toHaveCount(0);
  await shot(vera, 'roles-viewer-api-keys');

  // A domain: its records to read; no check on demand, no tracking switch, no deletion.
  await vera.goto(`/domains/${domain.id}`);
  await expect(vera.getByTestId('domain-detail')).toBeVisible();
  await expect(vera.getByRole('button', { name: 'Verify now' })).toHaveCount(0);
  await expect(vera.getByRole('button', { name: 'Delete domain' })).toHaveCount(0);
  await expect(vera.getByTestId('domain-tracking').getByRole('switch').first()).toBeDisabled();
  await expect(vera.getByTestId('domain-tracking').getByTestId('role-note')).toContainText('Your role (Viewer) cannot do this here: ask the owner, an admin or a developer.');
  await shot(vera, 'roles-viewer-domain');

  // Contacts: listed, without edit, delete or the ticks that lead to deleting; no adding.
  await vera.goto(`/audiences/${audience.id}`);
  await expect(vera.getByTestId('contact-row')).toHaveCount(1);
  await expect(vera.getByRole('button', { name: 'Edit reader@example.com' })).toHaveCount(0);
  await expect(vera.getByRole('button', { name: 'Delete reader@example.com' })).toHaveCount(0);
  await expect(vera.getByTestId('contacts').getByRole('checkbox')).toHaveCount(0);
  // No checkbox column at all, not an empty one: the first column is the email, in the header and in the row.
  await expect(vera.getByTestId('contacts').getByRole('columnheader')).toHaveText(['Email', 'Name', 'Subscription', 'Added', 'Actions']);
  await expect(vera.getByTestId('contact-row').getByRole('cell')).toHaveCount(5);
  await expect(vera.getByTestId('contact-row').getByRole('cell').first()).toHaveText('reader@example.com');
  await expect(vera.getByRole('button', { name: 'Delete audience' })).toHaveCount(0);
  await expect(vera.getByRole('button', { name: 'Add contact' })).toBeDisabled();
  await shot(vera, 'roles-viewer-contacts');

  // A template: its source to read and copy, not to type in; no Save, and the page says why.
  await vera.goto(`/templates/${template.id}`);
  const form = vera.getByTestId('template-form');
  await expect(form.getByLabel('Subject')).toHaveValue('Your receipt');
  for (const label of ['Name', 'Subject', 'HTML', 'Text']) await expect(form.getByLabel(label, { exact: true })).not.toBeEditable();
  await form.getByLabel('Subject').press('End');
  await vera.keyboard.type(' changed');
  await expect(form.getByLabel('Subject')).toHaveValue('Your receipt');
  await expect(vera.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(vera.getByTestId('template-editor').getByTestId('role-note')).toContainText('Your role (Viewer) cannot do this here');
  await shot(vera, 'roles-viewer-template');

  // A broadcast's composer likewise: its fields and choices take no input, and there is no Save.
  await vera.goto(`/broadcasts/${broadcast.id}`);
  const composer = vera.getByTestId('broadcast-form');
  await expect(composer.getByLabel('Subject')).toHaveValue('We launched');
  await expect(composer.getByLabel('Subject')).not.toBeEditable();
  await expect(composer.getByLabel('HTML', { exact: true })).not.toBeEditable();
  await expect(composer.getByLabel('Audience')).toBeDisabled();
  await expect(composer.getByRole('radio', { name: 'Use a template' })).toBeDisabled();
  await expect(vera.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(vera.getByTestId('broadcast-composer').getByTestId('role-note')).toContainText('Your role (Viewer) cannot do this here');

  // The owner makes her a developer: keys and domains are hers to change now; contacts still are not.
  await page.goto('/team');
  const row = page.getByTestId('member-row').filter({ hasText: invited });
  await row.getByRole('combobox', { name: `Role of ${invited}` }).selectOption('developer');
  await expect(row.getByRole('combobox', { name: `Role of ${invited}` })).toHaveValue('developer');

  await vera.goto('/api-keys');
  await expect(vera.getByTestId('organization-role')).toHaveText('Developer');
  await expect(vera.getByRole('button', { name: 'Revoke Production' })).toBeVisible();
  await expect(vera.getByRole('button', { name: 'Rename Production' })).toBeVisible();
  await shot(vera, 'roles-developer-api-keys');
  await vera.goto(`/domains/${domain.id}`);
  await expect(vera.getByRole('button', { name: 'Verify now' })).toBeVisible();
  await expect(vera.getByRole('button', { name: 'Delete domain' })).toBeVisible();
  await expect(vera.getByTestId('domain-tracking').getByRole('switch').first()).toBeEnabled();
  await shot(vera, 'roles-developer-domain');
  await vera.goto(`/audiences/${audience.id}`);
  await expect(vera.getByTestId('contact-row')).toHaveCount(1);
  await expect(vera.getByRole('button', { name: 'Edit reader@example.com' })).toHaveCount(0);
  await shot(vera, 'roles-developer-contacts');
  // Templates are a developer's to change: the editor takes input again.
  await vera.goto(`/templates/${template.id}`);
  await expect(vera.getByTestId('template-form').getByLabel('Subject')).toBeEditable();
  await expect(vera.getByTestId('template-editor').getByTestId('role-note')).toHaveCount(0);
  // Broadcasts are not: the composer stays read-only, naming the roles that may.
  await vera.goto(`/broadcasts/${broadcast.id}`);
  await expect(vera.getByTestId('broadcast-form').getByLabel('Subject')).not.toBeEditable();
  await expect(vera.getByTestId('broadcast-composer').getByTestId('role-note')).toContainText('Your role (Developer) cannot do this here');
  await vera.context().close();
});

test('a person in two organizations switches between them; the owner hands ownership to them', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const suffix = unique();
  const owner = `owner-${suffix}@${DOMAIN}`;
  const other = `otto-${suffix}@${DOMAIN}`;
  await signUp(page, owner, { landOn: '/team' });

  // Otto has an organization of his own, and is invited to Ada's as an admin.
  const otto = await newPerson(browser, new URL(page.url()).origin, other, 'Otto');
  await expect(otto.getByTestId('organization-role')).toHaveText('Owner');
  await expect(otto.getByTestId('organization-switcher')).toHaveCount(0);
  await trpcMutation(page, 'team.invite', { email: other, role: 'admin' });
  await otto.goto(await invitationLink(loopback, other));
  await otto.getByRole('button', { name: /^Join / }).click();
  await expect(otto).toHaveURL(HOME_URL);
  await expect(otto.getByTestId('organization-role')).toHaveText('Admin');

  // The switcher: his own organization, then back (the eumail_org cookie, kept across pages).
  const switcher = otto.getByTestId('organization-switcher');
  await expect(switcher.getByRole('option')).toHaveCount(2);
  await expect(switcher.getByRole('option', { name: /\(Owner\)$/ })).toHaveCount(1);
  await shot(otto, 'switcher-in-ada-organization');
  const own = await switcher.getByRole('option', { name: /\(Owner\)$/ }).getAttribute('value');
  const adas = await switcher.inputValue();
  await switcher.selectOption(own!);
  await expect(otto.getByTestId('organization-role')).toHaveText('Owner');
  expect((await otto.context().cookies()).find((cookie) => cookie.name === 'eumail_org')?.value).toBe(own);
  await otto.goto('/team');
  await expect(otto.getByTestId('member-row')).toHaveCount(1);
  await expect(otto.getByTestId('organization-role')).toHaveText('Owner');
  await otto.getByTestId('organization-switcher').selectOption(adas);
  await expect(otto.getByTestId('organization-role')).toHaveText('Admin');
  await otto.goto('/team');
  await expect(otto.getByTestId('member-row')).toHaveCount(2);
  // An admin transfers nothing: only the owner has "Make owner".
  await expect(otto.getByRole('button', { name: /the owner$/ })).toHaveCount(0);

  // Ada makes Otto the owner and stays as an admin.
  await page.reload();
  await page.getByRole('button', { name: `Make ${other} the owner` }).click();
  const dialog = page.getByTestId('transfer-ownership-dialog');
  await expect(dialog).toContainText('You become an admin');
  await shot(page, 'transfer-ownership-dialog', { fullPage: false });
  await dialog.getByRole('button', { name: 'Transfer ownership' }).click();
  await expect(dialog).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('organization-role')).toHaveText('Admin');
  await expect(page.getByTestId('member-row').filter({ hasText: other })).toContainText('Owner');
  await expect(page.getByRole('button', { name: /the owner$/ })).toHaveCount(0);
  await shot(page, 'team-after-transfer');

  await otto.reload();
  await expect(otto.getByTestId('organization-role')).toHaveText('Owner');
  await expect(otto.getByTestId('organization-switcher').getByRole('option', { name: /\(Owner\)$/ })).toHaveCount(2);
  await expect(otto.getByRole('button', { name: `Make ${owner} the owner` })).toBeVisible();
  await otto.context().close();
});
