import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { trpcMutation } from './dashboard-api';
import { setPlan, shot, signUp, uniqueEmail } from './helpers';

/**
 * Audiences end to end: an audience made in the dashboard, 2,500 contacts imported from a CSV
 * file (first stopped by the Free plan's cap of 1,000 contacts, then whole on the 10k plan), the
 * file's bad rows and the server's refusals listed by line, and the contacts searched, filtered,
 * edited, deleted one by one and in bulk, before the audience itself is deleted.
 */

const VALID = 2_500;

interface ContactsFile {
  path: string;
  /** Lines of the file skipped, before sending (the file) or by the server (the address). */
  skippedLines: number[];
}

/**
 * 2,500 valid contacts (every tenth unsubscribed, names with commas in quotes), with a BOM and
 * CRLF line ends as spreadsheets write them, and among them: a repeated address (merged), three
 * addresses the server refuses, an empty address and a row with a column missing.
 */
function writeContactsFile(dir: string): ContactsFile {
  const lines = ['Email,Name,Subscribed'];
  const skippedLines: number[] = [];
  const extra = (line: string, skipped = true) => {
    if (skipped) skippedLines.push(lines.length + 1);
    lines.push(line);
  };
  for (let i = 1; i <= VALID; i += 1) {
    lines.push(`contact-${i}@example.com,"Person ${i}, Jr.",${i % 10 === 0 ? 'no' : 'yes'}`);
    if (i === 10) extra('CONTACT-5@example.com,"Person 5 (again)",yes', false);
    if (i === 100) extra('not-an-address,Nobody,yes');
    if (i === 700) extra(',Empty Address,yes');
    if (i === 1500) extra('two@@example.com,Two Ats,yes');
    if (i === 1700) extra('short@example.com,Only two columns');
    if (i === 2400) extra('"Ada <ada@example.com>",Ada,yes');
  }
  const file = path.join(dir, 'contacts.csv');
  writeFileSync(file, `\uFEFF${lines.join('\r\n')}\r\n`);
  return { path: file, skippedLines };
}

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'e2e-audiences-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

const contactRows = (page: Page) => page.getByTestId('contact-row');
const contactRow = (page: Page, email: string) => page.locator(`[data-testid="contact-row"][data-email="${email}"]`);
const audienceCount = (page: Page) => page.getByTestId('audience-detail').getByTestId('audience-contact-count');

/** Picks the file in the import dialog and checks what the mapping step read from it. */
async function chooseFile(page: Page, file: ContactsFile) {
  const dialog = page.getByTestId('import-contacts-dialog');
  await dialog.getByTestId('csv-file-input').setInputFiles(file.path);
  await expect(dialog.getByTestId('import-file')).toContainText('contacts.csv: 2,506 rows, 3 columns separated by commas');
  await expect(dialog.getByLabel('Email column')).toHaveValue('0');
  await expect(dialog.getByLabel('Name column', { exact: true })).toHaveValue('1');
  await expect(dialog.getByLabel('Subscription column', { exact: true })).toHaveValue('2');
  await expect(dialog.getByLabel('The subscription column lists')).toHaveValue('subscribed');
  await expect(dialog.getByTestId('import-ready')).toContainText('2,504 rows to import, 2 rows will be skipped');
}

test('an audience gets 2,500 contacts from a CSV file, and its contacts are searched, edited and deleted', async ({ page }) => {
  test.setTimeout(240_000);
  const file = writeContactsFile(dir);
  await signUp(page, uniqueEmail('e2e-audiences'));

  // The page is built: an empty account explains audiences.
  await page.getByRole('link', { name: /^Audiences/ }).click();
  await expect(page).toHaveURL(/\/audiences$/);
  await expect(page.getByTestId('coming-soon')).toHaveCount(0);
  await expect(page.getByTestId('audiences-empty')).toContainText('No audiences yet');
  await expect(page.getByTestId('audiences-empty')).toContainText('send broadcasts to');
  await shot(page, 'audiences-empty');

  // Create one: its page opens, with nothing in it yet.
  await page.getByTestId('audiences-empty').getByRole('button', { name: 'Create audience' }).click();
  const create = page.getByTestId('create-audience-dialog');
  await expect(create.getByRole('button', { name: 'Create audience' })).toBeDisabled();
  await create.getByLabel('Name').fill('Newsletter readers');
  await shot(page, 'audiences-create', { fullPage: false });
  await create.getByRole('button', { name: 'Create audience' }).click();
  await expect(page).toHaveURL(/\/audiences\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Newsletter readers', level: 1 })).toBeVisible();
  await expect(audienceCount(page)).toHaveText('0 contacts');
  await expect(page.getByTestId('contacts-empty')).toContainText('No contacts yet');
  await shot(page, 'audience-empty');

  // On the Free plan (1,000 contacts) the import stops at the batch of 1,000 rows that would pass the cap, with the server's words.
  await page.getByTestId('contacts-empty').getByRole('button', { name: 'Import CSV' }).click();
  const importDialog = page.getByTestId('import-contacts-dialog');
  await expect(importDialog.getByTestId('csv-file-step')).toBeVisible();
  await shot(page, 'audiences-import-file', { fullPage: false });
  await chooseFile(page, file);
  const preview = importDialog.getByTestId('preview-row');
  await expect(preview).toHaveCount(5);
  await expect(preview.first()).toContainText('contact-1@example.com');
  await expect(preview.first()).toContainText('Person 1, Jr.');
  await importDialog.getByText('Rows that will be skipped (2)').click();
  await expect(importDialog.getByTestId('file-skipped').getByTestId('skipped-row')).toHaveCount(2);
  await expect(importDialog.getByTestId('file-skipped')).toContainText('no email address');
  await expect(importDialog.getByTestId('file-skipped')).toContainText('has 2 columns instead of 3');
  await shot(page, 'audiences-import-mapping', { fullPage: false });
  await importDialog.getByRole('button', { name: 'Import 2,504 contacts' }).click();
  const summary = importDialog.getByTestId('import-summary');
  await expect(summary).toBeVisible({ timeout: 60_000 });
  await expect(summary).toHaveAttribute('data-complete', 'false');
  await expect(summary.getByTestId('import-stopped')).toContainText('Plan limit reached');
  // The first 1,000 rows: 997 addresses, a repeated one and two the import refused.
  await expect(summary.getByTestId('import-stopped')).toContainText('3 slots are left and the rows from line 1,002 on add 998');
  await expect(summary.getByTestId('import-stopped')).toContainText('1,506 rows of the file were not imported');
  await expect(summary.getByTestId('import-created')).toHaveText('997');
  await expect(summary.getByTestId('import-confirmed-consent')).toHaveCount(0);
  await shot(page, 'audiences-import-capped', { fullPage: false });

  // On the 10k plan (5,000 contacts) the same file again: what is stored already is updated, the rest is created.
  await setPlan(page, '10k');
  await summary.getByRole('button', { name: 'Import another file' }).click();
  await chooseFile(page, file);
  // This time the member declares that every person in the file confirmed (a double opt-in they hold).
  const declaration = importDialog.getByLabel('Everyone in this file confirmed their subscription (double opt-in)');
  await expect(declaration).not.toBeChecked();
  await declaration.check();
  await importDialog.getByRole('button', { name: 'Import 2,504 contacts' }).click();
  // The import runs on the server (a file this small in a second or two); its progress is followed below with a larger one.
  await expect(summary).toBeVisible({ timeout: 60_000 });
  await expect(summary).toHaveAttribute('data-complete', 'true');
  // The 997 stored before and the repeated address are updated; five rows are refused.
  await expect(summary.getByTestId('import-confirmed-consent')).toContainText('Declared as confirmed consent');
  await expect(summary.getByTestId('import-created')).toHaveText('1,503');
  await expect(summary.getByTestId('import-updated')).toHaveText('998');
  await expect(summary.getByTestId('import-skipped')).toHaveText('5');
  // Every skipped row by its line in the file, with the address and the reason.
  const skipped = summary.getByTestId('skipped-row');
  await expect(skipped).toHaveCount(5);
  expect(await skipped.evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-row'))))).toEqual(file.skippedLines);
  await expect(skipped.filter({ hasText: 'not-an-address' })).toHaveCount(1);
  await expect(skipped.filter({ hasText: 'two@@example.com' })).toHaveCount(1);
  await expect(skipped.filter({ hasText: 'give the address alone' })).toContainText('Ada <ada@example.com>');
  await shot(page, 'audiences-import-summary', { fullPage: false });
  await summary.getByRole('button', { name: 'Done' }).click();
  await expect(importDialog).toBeHidden();

  // The audience holds the 2,500 contacts, newest first, 50 a page.
  await expect(audienceCount(page)).toHaveText('2,500 contacts');
  await expect(contactRows(page)).toHaveCount(50);
  await expect(page.getByTestId('contacts-shown')).toHaveText('50 contacts shown');
  // The repeated address was merged, the later row winning.
  await page.getByLabel('Search').fill('contact-5@');
  await expect(contactRows(page)).toHaveCount(1);
  await expect(contactRow(page, 'contact-5@example.com').getByTestId('contact-name')).toHaveText('Person 5 (again)');
  await shot(page, 'audience-detail');

  // Search, then re-subscribe an unsubscribed contact: the dialog asks for consent first.
  await page.getByLabel('Search').fill('CONTACT-1230@');
  await expect(contactRows(page)).toHaveCount(1);
  const ada = contactRow(page, 'contact-1230@example.com');
  await expect(ada.getByTestId('contact-subscription')).toHaveAttribute('data-subscribed', 'false');
  await shot(page, 'audiences-search');
  await ada.getByRole('button', { name: 'Edit contact-1230@example.com' }).click();
  const edit = page.getByTestId('edit-contact-dialog');
  await expect(edit.getByLabel('Name')).toHaveValue('Person 1230, Jr.');
  await edit.getByLabel('Name').fill('Ada Lovelace');
  await expect(edit.getByTestId('resubscribe-warning')).toHaveCount(0);
  await edit.getByLabel('Subscribed').check();
  await expect(edit.getByTestId('resubscribe-warning')).toContainText('only if they asked you to');
  await shot(page, 'audiences-edit-resubscribe', { fullPage: false });
  await edit.getByRole('button', { name: 'Save and subscribe again' }).click();
  await expect(edit).toBeHidden();
  await expect(ada.getByTestId('contact-name')).toHaveText('Ada Lovelace');
  await expect(ada.getByTestId('contact-subscription')).toHaveAttribute('data-subscribed', 'true');
  await page.getByLabel('Search').fill('');
  await expect(contactRows(page)).toHaveCount(50);

  // The subscription filter: 249 unsubscribed now, in pages.
  await page.getByLabel('Subscription').selectOption({ label: 'Unsubscribed' });
  await expect(page.getByTestId('contacts-shown')).toHaveText('50 contacts shown');
  await page.getByTestId('contacts').getByRole('button', { name: 'Load more' }).click();
  await expect(page.getByTestId('contacts-shown')).toHaveText('100 contacts shown');
  expect(await page.locator('[data-testid="contact-row"] [data-testid="contact-subscription"]').evaluateAll((badges) => badges.every((badge) => badge.getAttribute('data-subscribed') === 'false'))).toBe(true);
  await expect(contactRow(page, 'contact-1230@example.com')).toHaveCount(0);
  await shot(page, 'audiences-filter');
  await page.getByLabel('Subscription').selectOption({ label: 'All contacts' });

  // Bulk delete: three ticked, confirmed, gone.
  await expect(contactRows(page)).toHaveCount(50);
  const ticked = (await contactRows(page).evaluateAll((rows) => rows.slice(0, 3).map((row) => row.getAttribute('data-email')!))).filter(Boolean);
  expect(ticked).toHaveLength(3);
  for (const email of ticked) await page.getByRole('checkbox', { name: `Select ${email}` }).check();
  await expect(page.getByTestId('selection-count')).toHaveText('3 contacts selected');
  await shot(page, 'audiences-bulk-selected');
  await page.getByTestId('selection-bar').getByRole('button', { name: 'Delete selected' }).click();
  const bulk = page.getByTestId('delete-contacts-dialog');
  await expect(bulk.getByRole('heading', { name: 'Delete 3 contacts' })).toBeVisible();
  for (const email of ticked) await expect(bulk).toContainText(email);
  await shot(page, 'audiences-bulk-confirm', { fullPage: false });
  await bulk.getByRole('button', { name: 'Delete 3 contacts' }).click();
  await expect(bulk).toBeHidden();
  await expect(audienceCount(page)).toHaveText('2,497 contacts');
  for (const email of ticked) await expect(contactRow(page, email)).toHaveCount(0);
  await expect(page.getByTestId('selection-bar')).toHaveCount(0);

  // Select all shown, then clear.
  await page.getByRole('checkbox', { name: 'Select all shown contacts' }).check();
  await expect(page.getByTestId('selection-count')).toHaveText('50 contacts selected');
  await page.getByRole('button', { name: 'Clear selection' }).click();
  await expect(page.getByTestId('selection-bar')).toHaveCount(0);

  // One contact deleted from its row.
  const doomed = (await contactRows(page).first().getAttribute('data-email'))!;
  await contactRow(page, doomed).getByRole('button', { name: `Delete ${doomed}` }).click();
  const single = page.getByTestId('delete-contact-dialog');
  await single.getByRole('button', { name: 'Delete contact' }).click();
  await expect(single).toBeHidden();
  await expect(audienceCount(page)).toHaveText('2,496 contacts');
  await expect(contactRow(page, doomed)).toHaveCount(0);

  // Add one by hand: the server's complaint about the address shows under it.
  await page.getByTestId('contacts').getByRole('button', { name: 'Add contact' }).click();
  const add = page.getByTestId('add-contact-dialog');
  await add.getByLabel('Email').fill('Grace Hopper <grace@example.com>');
  await add.getByRole('button', { name: 'Add contact' }).click();
  await expect(add.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(add.getByTestId('field-error')).toContainText('give the address alone');
  await shot(page, 'audiences-add-invalid', { fullPage: false });
  await add.getByLabel('Email').fill('Grace@Example.com');
  await add.getByLabel('Name').fill('Grace Hopper');
  await add.getByRole('button', { name: 'Add contact' }).click();
  await expect(add).toBeHidden();
  await expect(audienceCount(page)).toHaveText('2,497 contacts');
  await expect(contactRow(page, 'grace@example.com').getByTestId('contact-name')).toHaveText('Grace Hopper');
  const audienceId = (await page.getByTestId('audience-detail').getAttribute('data-audience-id'))!;

  // The list counts them too.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audiences' }).click();
  const row = page.getByTestId('audience-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Newsletter readers');
  await expect(row.getByTestId('audience-contact-count')).toHaveText('2,497');
  await expect(page.getByTestId('contacts-total')).toHaveText('2,497 contacts in all.');
  await shot(page, 'audiences-list');

  // Deleting says what goes with it; cancelled from the list, then confirmed on the audience's page.
  await row.getByRole('button', { name: 'Delete Newsletter readers' }).click();
  const remove = page.getByTestId('delete-audience-dialog');
  await expect(remove.getByTestId('delete-audience-contacts')).toHaveText(
    'Its 2,497 contacts leave it, with their subscription status in it. Of them, contacts in no other audience are deleted; those also in another audience stay there.',
  );
  await shot(page, 'audiences-delete-confirm', { fullPage: false });
  await remove.getByRole('button', { name: 'Cancel' }).click();
  await expect(remove).toBeHidden();
  await row.getByRole('link', { name: 'Newsletter readers', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/audiences/${audienceId}$`));
  await page.getByRole('button', { name: 'Delete audience' }).click();
  await remove.getByRole('button', { name: 'Delete audience' }).click();
  await expect(page).toHaveURL(/\/audiences$/);
  await expect(page.getByTestId('audiences-empty')).toBeVisible();
  await page.goto(`/audiences/${audienceId}`);
  await expect(page.getByTestId('audience-not-found')).toContainText('Audience not found');
});

test('a large file is imported in the background: the dialog follows its batches, and may be closed while it runs', async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, uniqueEmail('e2e-audiences-large'), { landOn: '/audiences' });
  await setPlan(page, '50k');
  const audience = await trpcMutation<{ id: string }>(page, 'audiences.create', { name: 'Everyone' });
  const rows = 20_000;
  const file = path.join(dir, 'everyone.csv');
  writeFileSync(file, `email,first_name,last_name\n${Array.from({ length: rows }, (_, i) => `person-${i}@example.com,Person,${i}`).join('\n')}\n`);
  await page.goto(`/audiences/${audience.id}`);
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByTestId('import-contacts-dialog');
  await dialog.getByTestId('csv-file-input').setInputFiles(file);
  await dialog.getByRole('button', { name: 'Import 20,000 contacts' }).click();
  // Twenty batches of 1,000 rows, one after the other on the server: the dialog shows where it is.
  const progress = dialog.getByTestId('import-progress');
  await expect(progress).toBeVisible({ timeout: 30_000 });
  await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuemax', '20000');
  await expect(progress.getByTestId('import-progress-rows')).toContainText('of 20,000 rows');
  await expect(progress.getByTestId('import-progress-batches')).toHaveText(/^(Waiting to start|Batch \d+ of 20)$/);
  await shot(page, 'audiences-import-progress', { fullPage: false });
  // Closed while it runs: the import goes on without the page.
  await progress.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(async () => {
    await page.reload();
    await expect(audienceCount(page)).toHaveText('20,000 contacts', { timeout: 1_000 });
  }).toPass({ timeout: 120_000 });
  await page.getByLabel('Search').fill('person-19999@');
  await expect(contactRow(page, 'person-19999@example.com').getByTestId('contact-name')).toHaveText('Person 19999');
});

const dataShown = (page: Page) => page.getByRole('group', { name: 'Data shown' });
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

test('in test mode the create buttons say why they wait for Live, and offer the switch where they are', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signUp(page, uniqueEmail('e2e-test-mode'), { landOn: '/audiences' });
  const audience = await trpcMutation<{ id: string }>(page, 'audiences.create', { name: 'Readers' });
  await dataShown(page).getByRole('button', { name: 'Test mode' }).click();
  await expect(dataShown(page).getByRole('button', { name: 'Test mode' })).toHaveAttribute('aria-pressed', 'true');

  // Before the click: the button is disabled and says why, no key in the words.
  const create = page.getByRole('button', { name: 'Create audience' });
  await expect(create).toBeDisabled();
  await expect(create).toHaveAccessibleDescription(/Audiences are shared by Live and Test mode: create them in Live/);
  await expect(page.getByTestId('live-only-note')).not.toContainText('key');
  await shot(page, 'test-mode-audiences');
  await page.setViewportSize(PHONE);
  await expect(page.getByTestId('live-only-note').getByRole('button', { name: 'Switch to Live' })).toBeVisible();
  await shot(page, 'test-mode-audiences-390');
  await page.setViewportSize(DESKTOP);

  // Every other page that makes something both modes share says the same.
  for (const [path, label] of [
    ['/domains', 'Add domain'],
    ['/templates', 'New template'],
    ['/broadcasts', 'New broadcast'],
    ['/webhooks', 'Add endpoint'],
    ['/suppressions', 'Add addresses'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('button', { name: label })).toBeDisabled();
    await expect(page.getByTestId('live-only-note')).toContainText('in Live.');
  }
  await shot(page, 'test-mode-suppressions');

  // The audience's page: adding contacts waits too, and a change no button foresaw says why with the switch.
  await page.goto(`/audiences/${audience.id}`);
  await expect(page.getByRole('button', { name: 'Import CSV' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Add contact' })).toBeDisabled();
  await page.getByRole('button', { name: 'Delete audience' }).click();
  const remove = page.getByTestId('delete-audience-dialog');
  await remove.getByRole('button', { name: 'Delete audience' }).click();
  await expect(remove.getByRole('alert')).toContainText('Test mode');
  await expect(remove.getByTestId('error-message')).toContainText('switch to Live');
  await expect(remove.getByTestId('error-message')).not.toContainText('key');
  await shot(page, 'test-mode-refused', { fullPage: false });

  // The switch, where it stopped: the same page again, in Live, where the buttons work.
  await remove.getByRole('button', { name: 'Switch to Live' }).click();
  await expect(dataShown(page).getByRole('button', { name: 'Live' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(new RegExp(`/audiences/${audience.id}$`));
  await expect(page.getByRole('button', { name: 'Import CSV' })).toBeEnabled();
  await expect(page.getByTestId('live-only-note')).toHaveCount(0);

  // And from a create button's note.
  await dataShown(page).getByRole('button', { name: 'Test mode' }).click();
  await page.goto('/audiences');
  await page.getByTestId('live-only-note').getByRole('button', { name: 'Switch to Live' }).click();
  await expect(dataShown(page).getByRole('button', { name: 'Live' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Create audience' })).toBeEnabled();
});

test("a CSV exported from Resend maps by itself: first and last names joined, its unsubscribed column opts out and never back in", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signUp(page, uniqueEmail('e2e-audiences-resend'), { landOn: '/audiences' });
  const audience = await trpcMutation<{ id: string }>(page, 'audiences.create', { name: 'Moved from Resend' });
  await trpcMutation(page, 'audiences.batchContacts', {
    id: audience.id,
    contacts: [
      { email: 'left@example.org', name: 'Left Before', subscribed: false },
      { email: 'leaving@example.org', name: 'Leaving' },
    ],
  });
  const file = path.join(dir, 'resend-contacts.csv');
  writeFileSync(
    file,
    [
      'id,email,first_name,last_name,created_at,unsubscribed',
      '1,left@example.org,Lea,Left,2025-01-02 10:00:00,false',
      '2,leaving@example.org,Lee,Leaving,2025-01-02 10:00:00,true',
      '3,ada@example.org,Ada,Lovelace,2025-01-02 10:00:00,false',
      '4,grace@example.org,Grace,,2025-01-02 10:00:00,true',
      '5,alan@example.org,,,2025-01-02 10:00:00,',
    ].join('\n'),
  );
  await page.goto(`/audiences/${audience.id}`);
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByTestId('import-contacts-dialog');
  await dialog.getByTestId('csv-file-input').setInputFiles(file);

  // The columns, guessed from Resend's header.
  await expect(dialog.getByLabel('Email column')).toHaveValue('1');
  await expect(dialog.getByLabel('Name column', { exact: true })).toHaveValue('');
  await expect(dialog.getByLabel('First name column')).toHaveValue('2');
  await expect(dialog.getByLabel('Last name column')).toHaveValue('3');
  await expect(dialog.getByLabel('Subscription column', { exact: true })).toHaveValue('5');
  await expect(dialog.getByLabel('The subscription column lists')).toHaveValue('unsubscribed');
  await expect(dialog.getByLabel('The subscription column lists')).toHaveAccessibleDescription(/stays unsubscribed whatever the file says/);
  // The preview shows what is sent: the names joined, "true" read as an opt-out.
  const preview = dialog.getByTestId('preview-row');
  await expect(preview).toHaveCount(5);
  await expect(preview.nth(0)).toContainText('Lea Left');
  await expect(preview.nth(0)).toContainText('Yes');
  await expect(preview.nth(1)).toContainText('Lee Leaving');
  await expect(preview.nth(1)).toContainText('No');
  await expect(preview.nth(3)).toContainText('Grace');
  await expect(preview.nth(4)).toContainText('Not given');
  await shot(page, 'audiences-import-resend', { fullPage: false });
  await page.setViewportSize(PHONE);
  await shot(page, 'audiences-import-resend-390', { fullPage: false });
  await page.setViewportSize(DESKTOP);

  // Read the other way round, a yes would subscribe: the choice changes the preview.
  await dialog.getByLabel('The subscription column lists').selectOption('subscribed');
  await expect(preview.nth(1)).toContainText('Yes');
  await dialog.getByLabel('The subscription column lists').selectOption('unsubscribed');

  await dialog.getByRole('button', { name: 'Import 5 contacts' }).click();
  const summary = dialog.getByTestId('import-summary');
  await expect(summary).toHaveAttribute('data-complete', 'true');
  await expect(summary.getByTestId('import-created')).toHaveText('3');
  await expect(summary.getByTestId('import-updated')).toHaveText('2');
  await summary.getByRole('button', { name: 'Done' }).click();

  // Stored: the opt-out added, the earlier one kept though the file said subscribed.
  const expected: Array<[string, string, boolean]> = [
    ['left@example.org', 'Lea Left', false],
    ['leaving@example.org', 'Lee Leaving', false],
    ['ada@example.org', 'Ada Lovelace', true],
    ['grace@example.org', 'Grace', false],
    ['alan@example.org', '—', true],
  ];
  for (const [email, name, subscribed] of expected) {
    const row = contactRow(page, email);
    await expect(row.getByTestId('contact-name')).toHaveText(name);
    await expect(row.getByTestId('contact-subscription')).toHaveAttribute('data-subscribed', String(subscribed));
  }
  await shot(page, 'audiences-import-resend-stored');
});
