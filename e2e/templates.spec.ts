import { expect, test, type Page } from '@playwright/test';
import { shot, signUp, uniqueEmail } from './helpers';

/**
 * Templates end to end: a template with a placeholder and a default is written in the dashboard,
 * its preview (rendered by the server, the HTML in a sandboxed frame) follows what is typed, saved
 * or not, and the variables typed as JSON. JSON that does not parse is refused before any request;
 * the server's 400s (variables that are not an object, Liquid that does not parse or is not
 * allowed) show under their field as they are typed. Leaving with changes not saved asks first,
 * and "Send test" sends what the editor holds through the send path. Then the template is deleted.
 */

async function trpcMutation<T>(page: Page, path: string, input: unknown): Promise<T> {
  const response = await page.request.post(`/api/trpc/${path}`, { data: input });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).result.data;
}

const editor = (page: Page) => page.getByTestId('template-editor');
const preview = (page: Page) => page.getByTestId('template-preview');
const variablesField = (page: Page) => preview(page).getByLabel('Variables (JSON)');
const renderedSubject = (page: Page) => preview(page).getByTestId('preview-subject');
const renderedHtml = (page: Page) => page.frameLocator('[data-testid="html-preview"]');
const renderedText = (page: Page) => preview(page).getByTestId('preview-text');
const form = (page: Page) => page.getByTestId('template-form');

/** The preview has settled: the last variables typed are rendered, nothing is pending. */
async function settled(page: Page) {
  await expect(preview(page).getByTestId('preview-rendering')).toHaveCount(0);
  await expect(preview(page).getByTestId('rendered-preview')).not.toHaveAttribute('data-stale');
}

test('a template is written, previewed with variables, edited, refused bad syntax and deleted', async ({ page }) => {
  await signUp(page, uniqueEmail('e2e-templates'));

  // The page is built: an empty account explains templates and how a placeholder is written.
  await page.getByRole('link', { name: /^Templates/ }).click();
  await expect(page).toHaveURL(/\/templates$/);
  await expect(page.getByTestId('coming-soon')).toHaveCount(0);
  const empty = page.getByTestId('templates-empty');
  await expect(empty).toContainText('No templates yet');
  await expect(empty).toContainText('{{ name }}');
  await expect(empty).toContainText('{{ name | default: "there" }}');
  await shot(page, 'templates-empty');

  // A new template: a placeholder with a default and one without, in every part. The preview
  // renders it as it is written, before it is created, and its sample JSON follows the variables.
  await empty.getByRole('link', { name: 'New template' }).click();
  await expect(page).toHaveURL(/\/templates\/new$/);
  await expect(preview(page).getByTestId('preview-missing')).toBeVisible();
  await form(page).getByLabel('Name').fill('Welcome');
  await form(page).getByLabel('Subject').fill('Welcome, {{ name | default: "there" }}');
  await form(page).getByLabel('HTML').fill('<h1>Hello {{ name | default: "there" }}</h1>\n<p>Your plan: {{ plan }}</p>');
  await form(page).getByLabel('Text').fill('Hello {{ name | default: "there" }}, your plan is {{ plan }}.');
  await expect(renderedSubject(page)).toHaveText('Welcome, there');
  await expect(renderedHtml(page).getByRole('heading', { level: 1 })).toHaveText('Hello there');
  await expect(preview(page).getByTestId('template-variables').getByRole('listitem')).toHaveText(['name', 'plan']);
  await expect(variablesField(page)).toHaveValue('{\n  "name": "",\n  "plan": ""\n}');
  await settled(page);
  await shot(page, 'templates-new');
  await page.getByRole('button', { name: 'Create template' }).click();

  // Its page: the variables found on save, and a sample of them to fill in.
  await expect(page).toHaveURL(/\/templates\/[0-9a-f-]{36}$/);
  await expect(editor(page).getByRole('heading', { name: 'Welcome', level: 1 })).toBeVisible();
  await expect(preview(page).getByTestId('template-variables').getByRole('listitem')).toHaveText(['name', 'plan']);
  await expect(variablesField(page)).toHaveValue('{\n  "name": "",\n  "plan": ""\n}');
  await expect(editor(page).getByTestId('unsaved-changes')).toHaveCount(0);
  // Empty values are given: the default fills in the name, the plan renders empty, nothing is missing.
  await expect(renderedSubject(page)).toHaveText('Welcome, there');
  await expect(renderedHtml(page).getByRole('heading', { level: 1 })).toHaveText('Hello there');
  await expect(preview(page).getByTestId('missing-variables')).toHaveCount(0);

  // Only the name: the plan is listed as missing.
  await variablesField(page).fill('{ "name": "Ada" }');
  await expect(renderedSubject(page)).toHaveText('Welcome, Ada');
  await expect(renderedHtml(page).getByRole('heading', { level: 1 })).toHaveText('Hello Ada');
  await expect(renderedText(page)).toHaveText('Hello Ada, your plan is .');
  await expect(preview(page).getByTestId('missing-variables')).toContainText('plan');

  // Both, one with markup: the HTML part escapes it, the subject and text do not.
  await variablesField(page).fill('{ "name": "Ada <b>", "plan": "Pro" }');
  await expect(renderedHtml(page).getByRole('heading', { level: 1 })).toHaveText('Hello Ada <b>');
  await expect(renderedHtml(page).locator('b')).toHaveCount(0);
  await expect(renderedSubject(page)).toHaveText('Welcome, Ada <b>');
  await expect(renderedText(page)).toHaveText('Hello Ada <b>, your plan is Pro.');
  await expect(preview(page).getByTestId('missing-variables')).toHaveCount(0);
  await settled(page);
  await shot(page, 'templates-preview');

  // An edit not saved yet: said so, and the preview follows it at once, with the variable it adds.
  await form(page).getByLabel('Subject').fill('Hi {{ name }}, welcome to {{ company | default: "EU Mail" }}');
  await form(page).getByLabel('HTML').fill('<h1>Hi {{ name }}</h1>\n<p>Welcome to {{ company | default: "EU Mail" }}. Your plan: {{ plan }}</p>');
  await expect(editor(page).getByTestId('unsaved-changes')).toBeVisible();
  await expect(renderedSubject(page)).toHaveText('Hi Ada <b>, welcome to EU Mail');
  await expect(renderedHtml(page).getByRole('heading', { level: 1 })).toHaveText('Hi Ada <b>');
  await expect(renderedHtml(page).getByRole('paragraph')).toHaveText('Welcome to EU Mail. Your plan: Pro');
  await expect(preview(page).getByTestId('template-variables').getByRole('listitem')).toHaveText(['name', 'company', 'plan']);
  await settled(page);
  await shot(page, 'templates-unsaved');

  // Saved: the new variable joins the sample (the values typed stay).
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(editor(page).getByTestId('unsaved-changes')).toHaveCount(0);
  expect(JSON.parse(await variablesField(page).inputValue())).toEqual({ name: 'Ada <b>', plan: 'Pro', company: '' });
  await expect(renderedSubject(page)).toHaveText('Hi Ada <b>, welcome to EU Mail');
  await variablesField(page).fill('{ "name": "Grace", "plan": "Pro", "company": "Acme" }');
  await expect(renderedSubject(page)).toHaveText('Hi Grace, welcome to Acme');
  await expect(renderedHtml(page).getByRole('paragraph')).toHaveText('Welcome to Acme. Your plan: Pro');

  // The list shows it with its variables.
  await page.getByRole('main').getByRole('link', { name: 'Templates', exact: true }).click();
  await expect(page).toHaveURL(/\/templates$/);
  const row = page.getByTestId('template-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Welcome');
  await expect(row.getByTestId('template-subject')).toHaveText('Hi {{ name }}, welcome to {{ company | default: "EU Mail" }}');
  await expect(row.getByTestId('template-variables').getByRole('listitem')).toHaveText(['name', 'company', 'plan']);
  await expect(row).toContainText(/just now|minute ago/);
  await shot(page, 'templates-list');
  await row.getByRole('link', { name: 'Welcome', exact: true }).click();
  await expect(page).toHaveURL(/\/templates\/[0-9a-f-]{36}$/);
  await expect(variablesField(page)).toHaveValue('{\n  "name": "",\n  "company": "",\n  "plan": ""\n}');
  await settled(page);

  // JSON that does not parse: said under the field, and never sent.
  const previewRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('templates.preview')) previewRequests.push(decodeURIComponent(request.url()));
  });
  await variablesField(page).fill('{ "name": "Ada", ');
  await expect(variablesField(page)).toHaveAccessibleDescription(/Not valid JSON/);
  await expect(preview(page).getByTestId('rendered-preview')).toHaveAttribute('data-stale', 'true');
  await page.waitForTimeout(1_000);
  expect(previewRequests).toEqual([]);
  await shot(page, 'templates-invalid-json');

  // JSON that parses but is not an object: the server's 400, under the same field.
  await variablesField(page).fill('["Ada"]');
  await expect(variablesField(page)).toHaveAccessibleDescription(/must be a JSON object/);
  expect(previewRequests.length).toBeGreaterThan(0);
  await variablesField(page).fill('{ "name": "Ada" }');
  await expect(renderedSubject(page)).toHaveText('Hi Ada, welcome to EU Mail');
  await expect(variablesField(page)).not.toHaveAccessibleDescription(/JSON object|Not valid JSON/);

  // Liquid that does not parse: the server's 400 names the line, under the HTML as it is typed,
  // while the last rendering stays, dimmed; Save is refused the same way, and nothing is saved.
  const html = form(page).getByLabel('HTML');
  const savedHtml = await html.inputValue();
  await html.fill('<h1>Hi {{ name }}</h1>\n{% if vip %}\n<p>Thanks for being a VIP</p>');
  await expect(html).toHaveAccessibleDescription('line 2: tag {% if vip %} not closed');
  await expect(html).toHaveAttribute('aria-invalid', 'true');
  await expect(preview(page).getByTestId('preview-content-error')).toContainText('see the error under HTML');
  await expect(preview(page).getByTestId('rendered-preview')).toHaveAttribute('data-stale', 'true');
  await expect(renderedHtml(page).getByRole('heading', { level: 1 })).toHaveText('Hi Ada');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(html).toHaveAccessibleDescription('line 2: tag {% if vip %} not closed');
  await expect(editor(page).getByTestId('unsaved-changes')).toBeVisible();
  await shot(page, 'templates-syntax-error');

  // A loop is refused by name, under the text this time.
  await html.fill(savedHtml);
  const text = form(page).getByLabel('Text');
  await text.fill('Your orders:\n{% for order in orders %}{{ order }}{% endfor %}');
  await expect(text).toHaveAccessibleDescription(/line 2: the for tag is not allowed: loops are not allowed in templates/);
  await expect(html).not.toHaveAttribute('aria-invalid');

  // Deleted, after a confirmation: back to an empty list (the edits not saved go with it).
  await page.getByTestId('template-editor').getByRole('button', { name: 'Delete template' }).click();
  const dialog = page.getByTestId('delete-template-dialog');
  await expect(dialog).toContainText('Delete Welcome?');
  await shot(page, 'templates-delete-dialog', { fullPage: false });
  await dialog.getByRole('button', { name: 'Delete template' }).click();
  await expect(page).toHaveURL(/\/templates$/);
  await expect(page.getByTestId('templates-empty')).toBeVisible();
});

test('leaving a template with changes not saved asks first, and "Send test" sends what the editor holds', async ({ page, context, baseURL }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = uniqueEmail('e2e-template-test');
  await signUp(page, email);
  const template = await trpcMutation<{ id: string }>(page, 'templates.create', { name: 'Receipt', subject: 'Your receipt', html: '<h1>Thanks {{ name }}</h1>' });
  // Test mode: the test send is recorded and plays out here, nothing is delivered.
  await context.addCookies([{ name: 'eumail_mode', value: 'test', url: baseURL }]);
  await page.goto(`/templates/${template.id}`);
  await form(page).getByLabel('Subject').fill('Your receipt, {{ name }}');
  await variablesField(page).fill('{ "name": "Ada" }');
  await expect(renderedSubject(page)).toHaveText('Your receipt, Ada');

  // A link elsewhere in the dashboard asks first; staying keeps the edit.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Emails/ }).click();
  const leave = page.getByTestId('unsaved-changes-dialog');
  await expect(leave).toContainText('Leave without saving?');
  await shot(page, 'templates-leave-dialog', { fullPage: false });
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(page).toHaveURL(new RegExp(`/templates/${template.id}$`));
  await expect(form(page).getByLabel('Subject')).toHaveValue('Your receipt, {{ name }}');
  // Reloading (or closing the tab) gets the browser's own question.
  let asked = '';
  page.once('dialog', (dialog) => {
    asked = dialog.type();
    void dialog.dismiss();
  });
  await page.reload({ timeout: 2_000 }).catch(() => {});
  expect(asked).toBe('beforeunload');
  await expect(form(page).getByLabel('Subject')).toHaveValue('Your receipt, {{ name }}');

  // Send test: to the person's own address from the sandbox, suggested; a bad address is refused under its field.
  await preview(page).getByRole('button', { name: 'Send test' }).click();
  const dialog = page.getByTestId('send-test-dialog');
  await expect(dialog.getByLabel('To')).toHaveValue(email);
  await expect(dialog.getByLabel('From')).toHaveValue('onboarding@sandbox.localhost');
  await expect(dialog.getByTestId('send-test-mode')).toContainText('nothing is delivered');
  await dialog.getByLabel('To').fill('ada at example');
  await dialog.getByRole('button', { name: 'Send test' }).click();
  await expect(dialog.getByLabel('To')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('To').fill('ada@example.net');
  await dialog.getByRole('button', { name: 'Send test' }).click();
  await expect(dialog.getByTestId('send-test-result')).toContainText('Recorded in test mode');
  await shot(page, 'templates-send-test', { fullPage: false });

  // The email: the edit not saved, rendered with the sample, sent by the dashboard. Leaving asks, once more.
  await dialog.getByRole('link', { name: 'open the email' }).click();
  await page.getByTestId('unsaved-changes-dialog').getByRole('button', { name: 'Leave without saving' }).click();
  await expect(page).toHaveURL(/\/emails\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('[Test] Your receipt, Ada');
  await expect(page.getByTestId('envelope-sent-by')).toContainText('Dashboard');
  await expect(page.frameLocator('[data-testid="html-preview"]').getByRole('heading', { level: 1 })).toHaveText('Thanks Ada');
  await expect(page.locator('[data-testid="timeline-event"][data-type="email.delivered"]')).toHaveCount(1, { timeout: 15_000 });

  // Nothing was saved: the template is as it was.
  await page.goto(`/templates/${template.id}`);
  await expect(form(page).getByLabel('Subject')).toHaveValue('Your receipt');
  await page.setViewportSize({ width: 390, height: 844 });
  await settled(page);
  await shot(page, 'templates-editor-390');
});

test('the list shows templates newest first, twenty at a time', async ({ page }) => {
  await signUp(page, uniqueEmail('e2e-templates-pages'));
  for (let i = 1; i <= 21; i += 1) {
    const name = `Template ${String(i).padStart(2, '0')}`;
    const html = i === 21 ? '<p>{{ a }} {{ b }} {{ c }} {{ d }} {{ e }} {{ f }}</p>' : `<p>Hello {{ name }}</p>`;
    await trpcMutation(page, 'templates.create', { name, subject: name, html });
  }

  await page.goto('/templates');
  const rows = page.getByTestId('template-row');
  await expect(rows).toHaveCount(20);
  await expect(page.getByTestId('templates-count')).toHaveText('20 templates shown');
  // The newest first; a template with many variables shows the first four and how many more.
  await expect(rows.first()).toContainText('Template 21');
  await expect(rows.first().getByTestId('template-variables').getByRole('listitem')).toHaveText(['a', 'b', 'c', 'd', '+2 more']);
  await shot(page, 'templates-list-page');

  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(rows).toHaveCount(21);
  await expect(rows.last()).toContainText('Template 01');
  await expect(page.getByTestId('templates-count')).toHaveText('21 templates');
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
});
