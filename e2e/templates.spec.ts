import { expect, test, type Page } from '@playwright/test';
import { shot, signUp, uniqueEmail } from './helpers';

/**
 * Templates end to end: a template with a placeholder and a default is written in the dashboard,
 * its variables are found on save, and its preview (rendered by the server, the HTML in a
 * sandboxed frame) follows the variables typed as JSON and each saved change. JSON that does not
 * parse is refused before any request; the server's 400s (variables that are not an object, Liquid
 * that does not parse or is not allowed) show under their field. Then the template is deleted.
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

/**
 * A screenshot of the page with the preview's frame painted: Chromium does not paint a sandboxed
 * (out-of-process) frame that has not been in view, so a full-page screenshot would show it blank.
 * The viewport is made as tall as the page for the picture.
 */
async function shotWithFrame(page: Page, name: string) {
  if (!process.env.SHOTS_DIR) return;
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: size.width, height: await page.evaluate(() => document.documentElement.scrollHeight) });
  await page.waitForTimeout(300);
  await shot(page, name);
  await page.setViewportSize(size);
}

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

  // A new template: a placeholder with a default and one without, in every part.
  await empty.getByRole('link', { name: 'New template' }).click();
  await expect(page).toHaveURL(/\/templates\/new$/);
  await expect(page.getByTestId('preview-after-save')).toBeVisible();
  await form(page).getByLabel('Name').fill('Welcome');
  await form(page).getByLabel('Subject').fill('Welcome, {{ name | default: "there" }}');
  await form(page).getByLabel('HTML').fill('<h1>Hello {{ name | default: "there" }}</h1>\n<p>Your plan: {{ plan }}</p>');
  await form(page).getByLabel('Text').fill('Hello {{ name | default: "there" }}, your plan is {{ plan }}.');
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
  await shotWithFrame(page, 'templates-preview');

  // An edit not saved yet: said so, and the preview stays the saved version.
  await form(page).getByLabel('Subject').fill('Hi {{ name }}, welcome to {{ company | default: "EU Mail" }}');
  await form(page).getByLabel('HTML').fill('<h1>Hi {{ name }}</h1>\n<p>Welcome to {{ company | default: "EU Mail" }}. Your plan: {{ plan }}</p>');
  await expect(editor(page).getByTestId('unsaved-changes')).toBeVisible();
  await expect(preview(page).getByTestId('preview-unsaved')).toBeVisible();
  await expect(renderedSubject(page)).toHaveText('Welcome, Ada <b>');
  await shotWithFrame(page, 'templates-unsaved');

  // Saved: the new variable joins the sample (the values typed stay) and the preview follows.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(editor(page).getByTestId('unsaved-changes')).toHaveCount(0);
  await expect(preview(page).getByTestId('preview-unsaved')).toHaveCount(0);
  await expect(preview(page).getByTestId('template-variables').getByRole('listitem')).toHaveText(['name', 'company', 'plan']);
  expect(JSON.parse(await variablesField(page).inputValue())).toEqual({ name: 'Ada <b>', plan: 'Pro', company: '' });
  await expect(renderedSubject(page)).toHaveText('Hi Ada <b>, welcome to EU Mail');
  await expect(renderedHtml(page).getByRole('heading', { level: 1 })).toHaveText('Hi Ada <b>');
  await expect(renderedHtml(page).getByRole('paragraph')).toHaveText('Welcome to EU Mail. Your plan: Pro');
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
  await shotWithFrame(page, 'templates-invalid-json');

  // JSON that parses but is not an object: the server's 400, under the same field.
  await variablesField(page).fill('["Ada"]');
  await expect(variablesField(page)).toHaveAccessibleDescription(/must be a JSON object/);
  expect(previewRequests.length).toBeGreaterThan(0);
  await variablesField(page).fill('{ "name": "Ada" }');
  await expect(renderedSubject(page)).toHaveText('Hi Ada, welcome to EU Mail');
  await expect(variablesField(page)).not.toHaveAccessibleDescription(/JSON object|Not valid JSON/);

  // Liquid that does not parse: the server's 400 names the line, under the HTML; nothing is saved.
  const html = form(page).getByLabel('HTML');
  const savedHtml = await html.inputValue();
  await html.fill('<h1>Hi {{ name }}</h1>\n{% if vip %}\n<p>Thanks for being a VIP</p>');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(html).toHaveAccessibleDescription('line 2: tag {% if vip %} not closed');
  await expect(html).toHaveAttribute('aria-invalid', 'true');
  await expect(editor(page).getByTestId('unsaved-changes')).toBeVisible();
  await expect(renderedSubject(page)).toHaveText('Hi Ada, welcome to EU Mail');
  await expect(renderedHtml(page).getByRole('heading', { level: 1 })).toHaveText('Hi Ada');
  await shotWithFrame(page, 'templates-syntax-error');

  // A loop is refused by name, under the text this time.
  await html.fill(savedHtml);
  const text = form(page).getByLabel('Text');
  await text.fill('Your orders:\n{% for order in orders %}{{ order }}{% endfor %}');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(text).toHaveAccessibleDescription(/line 2: the for tag is not allowed: loops are not allowed in templates/);
  await expect(html).not.toHaveAttribute('aria-invalid');

  // Deleted, after a confirmation: back to an empty list.
  await page.getByTestId('template-editor').getByRole('button', { name: 'Delete template' }).click();
  const dialog = page.getByTestId('delete-template-dialog');
  await expect(dialog).toContainText('Delete Welcome?');
  await shot(page, 'templates-delete-dialog', { fullPage: false });
  await dialog.getByRole('button', { name: 'Delete template' }).click();
  await expect(page).toHaveURL(/\/templates$/);
  await expect(page.getByTestId('templates-empty')).toBeVisible();
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
