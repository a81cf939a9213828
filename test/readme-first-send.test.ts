import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServerBundle } from './support/built-server';
import { openTestDatabase } from './support/database';
import { waitForOutput, type Spawned } from './support/process';

// Issue 29, point 2: the README's "Send your first email" works verbatim on the defaults. The
// commands are read from README.md, so the test fails when the README drifts; only the port
// differs (3000 may be taken here), and DATA_DIR, which the CLI needs to find this server.
const root = path.resolve(import.meta.dirname, '..');
const execFileAsync = promisify(execFile);

/** The shell commands of the section's first bash block, each a line that is not a comment. */
function firstSendCommands(): string[] {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = /^## Send your first email\n([\s\S]*?)^## /m.exec(readme)?.[1];
  if (!section) throw new Error('README.md has no "## Send your first email" section');
  const block = /```bash\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

let bundle: Awaited<ReturnType<typeof buildServerBundle>>;
let server: Spawned;
let port: number;
let env: Record<string, string>;
let dropDatabase: () => Promise<void> = async () => {};
let dataDir: string;

beforeAll(async () => {
  bundle = await buildServerBundle('first-send');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eumail-first-send-'));
  port = await freePort();
  // The defaults of `npm start` but the port and DATA_DIR; no APP_URL (http://localhost:<port>), no
  // SANDBOX_DOMAIN. The SMTP listeners are off only so that parallel suites do not fight over them.
  env = { DATA_DIR: dataDir, PORT: String(port), DASHBOARD: 'off', BOUNCE_SMTP_PORT: '0', SMTP_GATEWAY_PORT: '0', SMTP_GATEWAY_TLS_PORT: '0', LOG_LEVEL: 'warn' };
  if (process.env.DATABASE_URL) {
    const database = await openTestDatabase();
    env.DATABASE_URL = database.url!;
    await database.close();
    dropDatabase = database.drop;
  }
  server = bundle.run('main', { ...env, LOG_LEVEL: 'info' });
  await waitForOutput(server, /listening on port \d+/, 90_000);
}, 120_000);

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  bundle?.remove();
  await dropDatabase();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** One command as a person pastes it into bash at the project's root, aimed at this server's port. */
async function run(command: string, extraEnv: Record<string, string> = {}): Promise<string> {
  const { stdout } = await execFileAsync('bash', ['-euo', 'pipefail', '-c', command.replaceAll('http://localhost:3000', `http://localhost:${port}`)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, ...extraEnv } as unknown as NodeJS.ProcessEnv,
    timeout: 90_000,
  });
  return stdout;
}

describe("the README's first send", () => {
  it('is three commands: a test key, a send from the sandbox, the email with its events', () => {
    const commands = firstSendCommands();
    expect(commands).toHaveLength(3);
    expect(commands[0]).toMatch(/^export EUMAIL_API_KEY=\$\(npm run --silent admin -- org:create .*--mode test/);
    expect(commands[1]).toMatch(/^export EMAIL_ID=\$\(curl .*http:\/\/localhost:3000\/api\/emails .*@sandbox\.localhost/);
    expect(commands[2]).toMatch(/^curl .*http:\/\/localhost:3000\/api\/emails\/\$EMAIL_ID/);
  });

  it('ends with a delivered test-mode email and its events', async () => {
    const [createKey, send, read] = firstSendCommands();
    // Steps 1 and 2 in one shell, as a person runs them one after the other; what they export is handed to step 3.
    const exported = (await run(`${createKey}\n${send}\nprintf '%s %s' "$EUMAIL_API_KEY" "$EMAIL_ID"`)).trim().split(' ');
    const [apiKey, emailId] = exported as [string, string];
    expect(apiKey).toMatch(/^eu_test_/);
    expect(emailId).toMatch(/^[0-9a-f-]{36}$/);

    // Step 3, again until the simulated delivery is in (TEST_MODE_STEP_MS, 2 s by default).
    let email: { status: string; events: Array<{ type: string }> } | undefined;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 500))) {
      email = JSON.parse(await run(read!, { EUMAIL_API_KEY: apiKey, EMAIL_ID: emailId }));
      if (email!.status === 'delivered') break;
    }
    expect(email).toMatchObject({ id: emailId, from: 'Acme <onboarding@sandbox.localhost>', to: ['ada@example.com'], status: 'delivered' });
    expect(email!.events.map((event) => event.type)).toEqual(['email.queued', 'email.sent', 'email.delivered']);
  }, 150_000);
});
