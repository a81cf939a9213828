import { expect, test, type Page } from '@playwright/test';
import { trpcMutation } from './dashboard-api';
import { setPlan, shot, signUp, uniqueEmail } from './helpers';

/**
 * Automations in the dashboard (docs/automations.md, "Dashboard"): one is built in the editor (a
 * trigger on the customer's own event, a delay, a send_email, a condition with its two branches),
 * a refusal of the server shows on the step it names, it is saved and enabled, an event sent for
 * a contact starts a run that appears in the runs view waiting at the delay, with its steps; then a
 * test run for the same contact, seen in Test mode. Nothing is delivered: the runs wait at the delay.
 */

const EVENT = 'user.signed_up';
const CONTACT = 'ada@readers.automations.test';

const card = (page: Page, key: string) => page.locator(`[data-testid="step-card"][data-step-key="${key}"]`);
/** The "add a step" select at the end of a list: the main one, or a branch. */
const addAtEnd = (scope: ReturnType<Page['locator']> | Page) => scope.getByTestId('add-step').last();

test('an automation is built in the editor, enabled, run by an event and followed in the runs view; a test run shows in Test mode', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueEmail('e2e-automations'), { confirmed: true, landOn: '/' });
  await setPlan(page, '10k');
  await trpcMutation(page, 'templates.create', { name: 'Welcome', subject: 'Welcome aboard', html: '<p>Hello {{ contact.first_name | default: "there" }}</p>', from: 'Acme <hello@acme.example.com>' });
  await trpcMutation(page, 'contacts.create', { email: CONTACT, first_name: 'Ada' });

  // The list starts empty, saying what automations are, with the way to the first one.
  await page.getByRole('link', { name: /^Automations/ }).click();
  await expect(page).toHaveURL(/\/automations$/);
  await expect(page.getByTestId('automations-empty')).toContainText('An automation takes each contact through a series of steps');
  await shot(page, 'automations-empty');
  await page.getByRole('link', { name: 'New automation' }).click();
  await expect(page).toHaveURL(/\/automations\/new$/);

  // The trigger is there from the start; the steps are added under it.
  await page.getByTestId('automation-name').fill('Welcome series');
  await page.getByTestId('trigger-event').selectOption({ label: 'Your own event is sent' });
  await page.getByTestId('trigger-event-name').fill(EVENT);
  await addAtEnd(page).selectOption({ label: 'Delay' });
  await card(page, 'delay_1').getByTestId('delay-duration').fill('2 hours');
  await addAtEnd(page).selectOption({ label: 'Send email' });
  await addAtEnd(page).selectOption({ label: 'Condition' });
  const branches = card(page, 'condition_1').locator('xpath=..').getByTestId('step-branch');
  await expect(branches).toHaveCount(2);
  await addAtEnd(branches.nth(0)).selectOption({ label: 'Delay' });
  await addAtEnd(branches.nth(1)).selectOption({ label: 'Delay' });
  await expect(page.getByTestId('step-card')).toHaveCount(6);

  // No template chosen yet: the server's refusal names the step, and shows on it.
  await page.getByTestId('save-automation').click();
  await expect(card(page, 'send_email_1').getByTestId('step-error')).toContainText('Step "send_email_1" (send_email)');
  await shot(page, 'automation-step-error');
  await card(page, 'send_email_1').getByTestId('send-email-template').selectOption({ label: 'Welcome' });
  await expect(card(page, 'send_email_1').getByTestId('step-error')).toHaveCount(0);
  await page.getByTestId('save-automation').click();
  await expect(page).toHaveURL(/\/automations\/[0-9a-f-]{36}$/);
  const automationId = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome series' })).toBeVisible();
  await expect(page.getByTestId('automation-status')).toHaveAttribute('data-status', 'disabled');
  // Saved as drawn: the branches come back under their condition.
  await expect(page.getByTestId('step-card')).toHaveCount(6);
  await expect(page.locator('[data-testid="step-branch"][data-branch="condition_met"] [data-testid="step-card"]')).toHaveAttribute('data-step-key', 'delay_2');
  await expect(page.locator('[data-testid="step-branch"][data-branch="condition_not_met"] [data-testid="step-card"]')).toHaveAttribute('data-step-key', 'delay_3');

  await page.getByTestId('toggle-status').click();
  await expect(page.getByTestId('automation-status')).toHaveAttribute('data-status', 'enabled');
  await expect(page.getByTestId('toggle-status')).toHaveText('Disable');

  // The application sends its event for the contact: a run starts, and waits at the delay.
  const receipt = await trpcMutation<{ runsStarted: number }>(page, 'customEvents.send', { event: EVENT, email: CONTACT });
  expect(receipt.runsStarted).toBe(1);
  await expect(card(page, 'delay_1').getByTestId('step-waiting')).toHaveText('1 waiting here', { timeout: 20_000 });
  await shot(page, 'automation-editor');

  await page.getByTestId('runs-link').click();
  await expect(page).toHaveURL(new RegExp(`/automations/${automationId}/runs$`));
  const row = page.getByTestId('run-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(CONTACT);
  await expect(row.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
  await expect(row).toContainText('delay_1');
  await expect(page.getByTestId('figure-running')).toHaveAttribute('data-value', '1');
  await expect(page.locator('[data-testid="waiting-per-step"] [data-step-key="delay_1"]')).toContainText('1');
  await shot(page, 'automation-runs');

  // The status filter: no run completed yet.
  await page.getByTestId('runs-status-filter').selectOption('completed');
  await expect(page.getByTestId('runs-empty')).toHaveText('No completed run.');
  await page.getByTestId('runs-status-filter').selectOption('');
  await row.getByRole('link', { name: CONTACT, exact: true }).click();
  await expect(page.getByTestId('run-detail')).toBeVisible();
  await expect(page.getByTestId('run-step')).toHaveCount(2);
  await expect(page.locator('[data-testid="run-step"][data-step-key="trigger"]')).toHaveAttribute('data-status', 'completed');
  await expect(page.locator('[data-testid="run-step"][data-step-key="delay_1"]')).toHaveAttribute('data-status', 'waiting');
  await shot(page, 'automation-run');

  // A test run for the same contact: shown in Test mode, the live run not.
  await page.goto(`/automations/${automationId}`);
  await page.getByTestId('test-run').click();
  const dialog = page.getByTestId('test-run-dialog');
  await dialog.getByTestId('test-run-contact').fill(CONTACT);
  await dialog.getByRole('button', { name: 'Start test run' }).click();
  await expect(dialog).toContainText(`A test run for ${CONTACT} started`);
  await shot(page, 'automation-test-run', { fullPage: false });
  await dialog.getByRole('button', { name: 'See it in Test mode' }).click();
  await expect(page).toHaveURL(new RegExp(`/automations/${automationId}/runs$`));
  await expect(page.getByRole('group', { name: 'Data shown' }).getByRole('button', { name: 'Test mode' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('run-row')).toHaveCount(1);
  await expect(page.getByTestId('run-row')).toContainText(CONTACT);
  await expect(page.locator('[data-testid="waiting-per-step"] [data-step-key="delay_1"]')).toContainText('1', { timeout: 20_000 });
  await shot(page, 'automation-test-runs');

  // The plan's caps: one automation enabled.
  await page.getByRole('group', { name: 'Data shown' }).getByRole('button', { name: 'Live' }).click();
  await expect(page.getByRole('group', { name: 'Data shown' }).getByRole('button', { name: 'Live' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('run-row')).toHaveCount(1);
  await page.goto('/billing');
  await expect(page.getByTestId('cap-automations-value')).toHaveText('1 of 5');
  await expect(page.getByTestId('cap-automation-runs-value')).toContainText('1 of');
  await page.getByTestId('cap-automations').scrollIntoViewIfNeeded();
  await shot(page, 'automations-billing-caps', { fullPage: false });

  // The list: the automation, enabled, with its one live run running.
  await page.goto('/automations');
  const listed = page.getByTestId('automation-row');
  await expect(listed).toHaveCount(1);
  await expect(listed.getByTestId('automation-status')).toHaveAttribute('data-status', 'enabled');
  await expect(listed.getByTestId('automation-trigger')).toHaveText(`Event "${EVENT}"`);
  await expect(listed.getByTestId('automation-runs')).toContainText('1 running');
  await shot(page, 'automations-list');

  // Stopped: disabled, its runs ended.
  await listed.getByRole('link', { name: 'Welcome series', exact: true }).click();
  await page.getByTestId('stop-automation').click();
  await page.getByTestId('stop-dialog').getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('automation-status')).toHaveAttribute('data-status', 'disabled');
  await page.getByTestId('runs-link').click();
  await expect(page.getByTestId('run-row').getByTestId('run-status')).toHaveAttribute('data-status', 'cancelled');
});
