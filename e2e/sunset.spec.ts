import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { trpcMutation, trpcQuery, verifiedDomain } from './dashboard-api';
import { E2E_SUNSET_WEB_PORT } from './loopback-ports';
import { setPlan, shot, signUp, uniqueEmail } from './helpers';
import { useLoopbackMail } from './loopback-mail';
import { ownServerUrl, startOwnServer, type OwnServer } from './own-server';

/**
 * Issue 37, sunset by human engagement: on an audience's page the setting shows, before it is
 * saved, how many contacts the chosen period would sunset, and once saved the run sets them sunset
 * (the count "Sunset now"). Contacts must have been silent for months, so this spec starts its own
 * web server from the same build with the shared test clock on (docs/test-clock.md) and moves it
 * with the operator CLI; the run's shared server keeps real time for every other spec.
 */
const DATA_DIR = '.data-e2e-sunset';
const execFileAsync = promisify(execFile);

let server: OwnServer | undefined;
// The DNS the own server asks (DNS_SERVERS): where a sending domain's records are published.
const loopback = useLoopbackMail();

test.use({ baseURL: ownServerUrl(E2E_SUNSET_WEB_PORT) });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer({ port: E2E_SUNSET_WEB_PORT, dataDir: DATA_DIR, env: { TEST_CLOCK: 'on' }, what: 'the test-clock web server' });
});

test.afterAll(async () => {
  await server?.stop();
});

/** Moves the server's shared clock forward (`npm run admin -- clock:advance`, through its admin endpoint). */
async function advanceClock(by: string): Promise<void> {
  const { stdout } = await execFileAsync('npm', ['run', '--silent', 'admin', '--', 'clock:advance', '--by', by], { env: { ...process.env, DATA_DIR } });
  expect(JSON.parse(stdout.trim().split('\n').pop()!)).toMatchObject({ offsetMs: expect.any(Number) });
}

const addContacts = (page: Page, id: string, emails: string[]) => trpcMutation(page, 'audiences.batchContacts', { id, contacts: emails.map((email) => ({ email })) });

/**
 * How many members the run has set sunset, as the server counts them. The spec waits for the run
 * here and then loads the page once: reloading until the page shows the count, with a second per
 * load, never passed on a loaded machine, where a load alone takes longer.
 */
const sunsetNow = async (page: Page, id: string) => (await trpcQuery<{ sunsetNow: number }>(page, 'audiences.sunsetPreview', { id })).sunsetNow;

test('an audience previews how many contacts a sunset period would affect, then sunsets them once it is saved', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueEmail('e2e-sunset'));
  const audience = await trpcMutation<{ id: string }>(page, 'audiences.create', { name: 'Newsletter' });
  await addContacts(page, audience.id, ['ada@example.net', 'bob@example.net', 'cy@example.net', 'dee@example.net', 'eve@example.net']);
  // A hundred days on, two more join: the first five have been silent since they joined, these two not.
  await advanceClock('100d');
  await addContacts(page, audience.id, ['fay@example.net', 'gus@example.net']);

  await page.goto(`/audiences/${audience.id}`);
  const section = page.getByTestId('audience-sunset');
  await expect(section).toContainText('Sunset');
  const months = section.getByLabel('Period');
  await expect(months).toHaveValue('off');
  await expect(section.getByTestId('sunset-preview')).toContainText('Choose a period to see how many contacts it would sunset.');
  await expect(section.getByTestId('sunset-now')).toHaveAttribute('data-count', '0');
  await expect(section.getByTestId('sunset-save')).toBeDisabled();
  await shot(page, 'sunset-off');

  // Each period chosen is counted at once, before anything is saved.
  await months.selectOption('6');
  await expect(section.getByTestId('sunset-preview')).toHaveAttribute('data-count', '0');
  await expect(section.getByTestId('sunset-preview')).toContainText('0 contacts would be sunset');
  await months.selectOption('3');
  await expect(section.getByTestId('sunset-preview')).toHaveAttribute('data-count', '5');
  await expect(section.getByTestId('sunset-preview')).toContainText('5 contacts would be sunset');
  await expect(section.getByTestId('sunset-preview')).toContainText('of 7 subscribed contacts');
  await expect(section.getByTestId('sunset-save')).toBeEnabled();
  await shot(page, 'sunset-preview');

  // Saved: the change wakes the run, which sets the five sunset (the ledger has an entry each).
  await section.getByTestId('sunset-save').click();
  await expect(section.getByTestId('sunset-save')).toBeDisabled();
  await expect.poll(() => sunsetNow(page, audience.id), { timeout: 20_000 }).toBe(5);
  await page.reload();
  await expect(page.getByTestId('audience-sunset').getByTestId('sunset-now')).toHaveAttribute('data-count', '5');
  await expect(page.getByTestId('audience-sunset').getByLabel('Period')).toHaveValue('3');
  await expect(page.getByTestId('audience-sunset').getByTestId('sunset-preview')).toContainText('5 contacts sunset by it');
  await shot(page, 'sunset-saved');

  // Turned off: every sunset contact comes back when the run applies it.
  await page.getByTestId('audience-sunset').getByLabel('Period').selectOption('off');
  await expect(page.getByTestId('audience-sunset').getByTestId('sunset-preview')).toContainText('Turning it off brings every sunset contact back.');
  await page.getByTestId('audience-sunset').getByTestId('sunset-save').click();
  await expect.poll(() => sunsetNow(page, audience.id), { timeout: 20_000 }).toBe(0);
  await page.reload();
  await expect(page.getByTestId('audience-sunset').getByTestId('sunset-now')).toHaveAttribute('data-count', '0');
});

/** The members sent the re-engagement email and in their grace period, as the server counts them. */
const reengagedNow = async (page: Page, id: string) => (await trpcQuery<{ reengagedNow: number }>(page, 'audiences.sunsetPreview', { id })).reengagedNow;

test('a re-engagement email goes first: members due are mailed, and sunset only once the grace period has passed', async ({ page }) => {
  test.setTimeout(150_000);
  await signUp(page, uniqueEmail('e2e-reengage'), { confirmed: true, dataDir: DATA_DIR });
  await setPlan(page, '10k', DATA_DIR);
  const domain = await verifiedDomain(page, loopback.dns);
  await trpcMutation(page, 'templates.create', { name: 'We miss you', subject: 'Still there?', html: '<p>Still want our news?</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>' });
  const audience = await trpcMutation<{ id: string }>(page, 'audiences.create', { name: 'Customers' });
  await addContacts(page, audience.id, ['ann@example.net', 'ben@example.net', 'cid@example.net']);
  await advanceClock('100d');

  await page.goto(`/audiences/${audience.id}`);
  const section = page.getByTestId('audience-sunset');
  await section.getByLabel('Period').selectOption('3');
  await expect(section.getByTestId('sunset-preview')).toHaveAttribute('data-count', '3');
  const fields = section.getByTestId('sunset-reengagement');
  await fields.getByRole('switch', { name: 'Send a re-engagement email first' }).click();
  await fields.getByLabel('Template').selectOption({ label: 'We miss you' });
  await fields.getByLabel('From').fill(`News <news@${domain}>`);
  await fields.getByLabel('Grace period').selectOption('7');
  await expect(section.getByTestId('sunset-preview')).toContainText('would be mailed first, then sunset unless they open');
  await shot(page, 'sunset-reengagement-form');

  // Saved: the run mails the three members instead of setting them sunset.
  await section.getByTestId('sunset-save').click();
  await expect(section.getByTestId('sunset-save')).toBeDisabled();
  await expect.poll(() => reengagedNow(page, audience.id), { timeout: 30_000 }).toBe(3);
  expect(await sunsetNow(page, audience.id)).toBe(0);
  await page.reload();
  await expect(page.getByTestId('audience-sunset').getByTestId('sunset-reengaged')).toHaveAttribute('data-count', '3');
  await expect(page.getByTestId('audience-sunset').getByTestId('sunset-now')).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('audience-sunset').getByTestId('sunset-preview')).toContainText('3 contacts due: mailed first, sunset after the grace period');
  await shot(page, 'sunset-reengagement-grace');

  // The emails are in the email list, tagged.
  await page.goto('/emails');
  await expect(page.getByText('Still there?').first()).toBeVisible();

  // Eight days on, a shorter grace period saved wakes the run: nobody opened, all three are sunset.
  await advanceClock('8d');
  await page.goto(`/audiences/${audience.id}`);
  const again = page.getByTestId('audience-sunset');
  await again.getByTestId('sunset-reengagement').getByLabel('Grace period').selectOption('3');
  await again.getByTestId('sunset-save').click();
  await expect.poll(() => sunsetNow(page, audience.id), { timeout: 30_000 }).toBe(3);
  await page.reload();
  await expect(page.getByTestId('audience-sunset').getByTestId('sunset-now')).toHaveAttribute('data-count', '3');
  await expect(page.getByTestId('audience-sunset').getByTestId('sunset-reengaged')).toHaveAttribute('data-count', '0');
  await shot(page, 'sunset-reengagement-done');
});
