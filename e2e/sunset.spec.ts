import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { trpcMutation } from './dashboard-api';
import { E2E_DNS_PORT, E2E_SUNSET_WEB_PORT } from './loopback-ports';
import { shot, signUp, uniqueEmail } from './helpers';

/**
 * Issue 37, sunset by human engagement: on an audience's page the setting shows, before it is
 * saved, how many contacts the chosen period would sunset, and once saved the run sets them sunset
 * (the count "Sunset now"). Contacts must have been silent for months, so this spec starts its own
 * web server from the same build with the shared test clock on (docs/test-clock.md) and moves it
 * with the operator CLI; the run's shared server keeps real time for every other spec.
 */
const WEB_URL = `http://localhost:${E2E_SUNSET_WEB_PORT}`;
const DATA_DIR = '.data-e2e-sunset';
const execFileAsync = promisify(execFile);

let server: ChildProcess;

test.use({ baseURL: WEB_URL });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  rmSync(DATA_DIR, { recursive: true, force: true });
  server = spawn(process.execPath, ['--enable-source-maps', 'scripts/start.mjs'], {
    env: {
      ...process.env,
      DATA_DIR,
      TEST_CLOCK: 'on',
      PORT: String(E2E_SUNSET_WEB_PORT),
      APP_URL: WEB_URL,
      DNS_SERVERS: `127.0.0.1:${E2E_DNS_PORT}`,
      BOUNCE_SMTP_PORT: '0',
      SMTP_GATEWAY_PORT: '0',
      SMTP_GATEWAY_TLS_PORT: '0',
      MAIL_HOST: 'mx.eumail.example',
      LOG_LEVEL: 'warn',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 170_000;
  for (;;) {
    const up = await fetch(`${WEB_URL}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || server.exitCode !== null) throw new Error('the test-clock web server did not start');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(DATA_DIR, { recursive: true, force: true });
});

/** Moves the server's shared clock forward (`npm run admin -- clock:advance`, through its admin endpoint). */
async function advanceClock(by: string): Promise<void> {
  const { stdout } = await execFileAsync('npm', ['run', '--silent', 'admin', '--', 'clock:advance', '--by', by], { env: { ...process.env, DATA_DIR } });
  expect(JSON.parse(stdout.trim().split('\n').pop()!)).toMatchObject({ offsetMs: expect.any(Number) });
}

const addContacts = (page: Page, id: string, emails: string[]) => trpcMutation(page, 'audiences.batchContacts', { id, contacts: emails.map((email) => ({ email })) });

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
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('audience-sunset').getByTestId('sunset-now')).toHaveAttribute('data-count', '5', { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByTestId('audience-sunset').getByLabel('Period')).toHaveValue('3');
  await expect(page.getByTestId('audience-sunset').getByTestId('sunset-preview')).toContainText('5 contacts sunset by it');
  await shot(page, 'sunset-saved');

  // Turned off: every sunset contact comes back when the run applies it.
  await page.getByTestId('audience-sunset').getByLabel('Period').selectOption('off');
  await expect(page.getByTestId('audience-sunset').getByTestId('sunset-preview')).toContainText('Turning it off brings every sunset contact back.');
  await page.getByTestId('audience-sunset').getByTestId('sunset-save').click();
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('audience-sunset').getByTestId('sunset-now')).toHaveAttribute('data-count', '0', { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
});
