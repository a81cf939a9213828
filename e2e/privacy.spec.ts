import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { shot, signUp, uniqueEmail } from './helpers';

/**
 * The privacy record page: the owner reads the organization's record of processing activities
 * (GDPR Art. 30) rendered from the same JSON the API answers, and downloads it as a file.
 */
test('the owner reads the record of processing activities and downloads it as JSON', async ({ page }) => {
  const email = uniqueEmail('privacy');
  await signUp(page, email);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Privacy record' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy record' })).toBeVisible();
  await expect(page.getByTestId('privacy-record')).toBeVisible();

  // The page shows what the API answers: fetched the way the dashboard does, with the session.
  const response = await page.request.get(`/api/trpc/privacy.processingActivities?input=${encodeURIComponent('{}')}`);
  expect(response.status(), await response.text()).toBe(200);
  const record = (await response.json()).result.data;
  expect(record.controller.contact).toBe(email);

  const overview = page.getByTestId('privacy-overview');
  await expect(overview).toContainText(record.controller.name);
  await expect(overview).toContainText(`Contact: ${email}`);
  await expect(overview).toContainText('EU');
  await expect(page.getByTestId('privacy-base-url')).toHaveText(record.processor.baseUrl);

  // A new organization is on Free: 30 days for emails, 30 for attachments, 400 for the audit log.
  const rules = page.getByTestId('retention-rule');
  await expect(rules).toHaveCount(record.retention.rules.length);
  await expect(rules.filter({ hasText: 'Email records, bodies and event history' })).toContainText('30 days');
  await expect(rules.filter({ hasText: 'Contacts' })).toContainText('Until removed');
  await expect(page.getByTestId('privacy-retention')).toContainText('Under your plan, Free.');

  const activities = page.getByTestId('privacy-activity');
  await expect(activities).toHaveCount(record.activities.length);
  // An activity is found by its heading: another's text may name it (sign-up forms write to the consent ledger).
  const activityNamed = (name: string) => activities.filter({ has: page.getByRole('heading', { level: 3, name, exact: true }) });
  for (const activity of record.activities) await expect(activityNamed(activity.name)).toContainText(activity.purpose);
  await expect(activityNamed('Event notifications (webhooks)')).toContainText('No endpoint is configured');

  await expect(page.getByTestId('sub-processors-empty')).toBeVisible();
  await expect(page.getByTestId('security-measure')).toHaveCount(record.securityMeasures.length);
  await expect(page.getByTestId('privacy-security')).toContainText('Secrets sealed at rest');
  await shot(page, 'privacy');

  // Download JSON: the file is the record on screen.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON' }).click()]);
  expect(download.suggestedFilename()).toBe(`processing-activities-${record.generatedAt.slice(0, 10)}.json`);
  const downloaded = JSON.parse(await readFile((await download.path())!, 'utf8'));
  expect({ ...downloaded, generatedAt: null }).toEqual({ ...record, generatedAt: null });
});

test('says so when the record cannot be loaded, and loads it on a retry', async ({ page }) => {
  await signUp(page, uniqueEmail('privacy-error'));
  let fail = true;
  // The dashboard batches its queries into one URL: the record's procedure is somewhere in the path.
  await page.route(
    (url) => url.pathname.includes('privacy.processingActivities'),
    (route) => (fail ? route.abort('connectionrefused') : route.fallback()),
  );
  await page.goto('/privacy');
  await expect(page.getByRole('alert').filter({ hasText: 'Could not load the privacy record' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Download JSON' })).toHaveCount(0);
  await shot(page, 'privacy-error');
  fail = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('privacy-record')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download JSON' })).toBeVisible();
});
