import { createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAdminArgs, runAdminCommand } from '@/server/admin/commands';
import { startTestApp, type TestApp } from './support/app';
import { buildServerBundle } from './support/built-server';
import { openTestDatabase } from './support/database';
import { waitForOutput } from './support/process';

// The suite runs on PGlite and on Postgres: with DATABASE_URL the CLI and server use a fresh database.
let dataDir: string;
let env: Record<string, string>;
let dropDatabase: () => Promise<void> = async () => {};
// What `npm start` and `npm run admin` run: the esbuild bundle under node alone. Each process boots
// in about half the CPU tsx needs to compile the sources on the fly.
let bundle: Awaited<ReturnType<typeof buildServerBundle>>;

beforeAll(async () => {
  bundle = await buildServerBundle('admin-cli');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eumail-cli-'));
  env = { DATA_DIR: dataDir, SMTP_GATEWAY_PORT: '0', SMTP_GATEWAY_TLS_PORT: '0', BOUNCE_SMTP_PORT: '0', DASHBOARD: 'off', PORT: '0', APP_URL: 'http://127.0.0.1:3000' };
  if (process.env.DATABASE_URL) {
    const database = await openTestDatabase();
    env.DATABASE_URL = database.url!;
    await database.close();
    dropDatabase = database.drop;
  }
});
afterAll(async () => {
  bundle.remove();
  await dropDatabase();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

// A port found free can be taken by another test file's process before the server binds it: try a fresh one then.
const startServerOnFreeBouncePort = async () => {
  for (let attempt = 1; ; attempt++) {
    const bouncePort = await freePort();
    const server = bundle.run('main', { ...env, BOUNCE_SMTP_PORT: String(bouncePort) });
    try {
      await waitForOutput(server, /listening on port (\d+)/);
      await waitForOutput(server, new RegExp(`Bounce receiver listening on port ${bouncePort}`));
      return { server, bouncePort };
    } catch (error) {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await server.exited;
      if (attempt === 3 || !server.output().includes(`EADDRINUSE: address already in use 0.0.0.0:${bouncePort}`)) throw error;
    }
  }
};

const smtpGreeting = (port: number) =>
  new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('data', (chunk) => {
      resolve(chunk.toString());
      socket.end('QUIT\r\n');
    });
    socket.once('error', reject);
  });

const admin = async (...args: string[]) => {
  const cli = bundle.run('cli', env, args);
  const code = await cli.exited;
  const output = cli.output();
  const line = output.split('\n').find((l) => l.startsWith('{'));
  return { code, json: line ? JSON.parse(line) : undefined, output };
};

describe('admin commands', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());
  const run = (argv: string[]) => {
    const { command, args } = parseAdminArgs(argv);
    return runAdminCommand(app.runtime.deps, command, args);
  };

  it('manage plan, review, status, overage and rate limit', async () => {
    const { organizationId: org } = (await run(['org:create', '--name', 'Acme', '--owner-email', 'o@acme.test', '--plan', '10k'])) as { organizationId: string };
    expect(await run(['org:plan', '--org', org, '--plan', '1m'])).toMatchObject({ plan: '1m' });
    expect(await run(['org:review', '--org', org, '--approve'])).toMatchObject({ reviewed: true });
    expect(await run(['org:review', '--org', org, '--revoke'])).toMatchObject({ reviewed: false });
    expect(await run(['org:status', '--org', org, '--status', 'paused'])).toMatchObject({ status: 'paused' });
    expect(await run(['org:overage', '--org', org, '--on'])).toMatchObject({ overageEnabled: true });
    expect(await run(['org:overage', '--org', org, '--off'])).toMatchObject({ overageEnabled: false });
    expect(await run(['org:rate-limit', '--org', org, '--limit', '1000'])).toMatchObject({ rateLimitOverride: 1000 });
    expect(await run(['org:rate-limit', '--org', org, '--default'])).toMatchObject({ rateLimitOverride: null });
    expect(await run(['org:usage', '--org', org])).toMatchObject({ plan: { id: '1m' }, month: { emails: 0, quota: 1_000_000 }, today: { recipients: 0 }, review: { reviewed: false, used: 0 } });
  });

  it.each([
    [['org:create', '--name', 'X', '--owner-email', 'x@y.test', '--plan', 'gold'], 'VALIDATION_ERROR'],
    [['org:create', '--owner-email', 'x@y.test', '--plan', 'free'], 'VALIDATION_ERROR'],
    [['org:create', '--name', 'X', '--owner-email', 'nobody', '--plan', 'free'], 'VALIDATION_ERROR'],
    [['org:create', '--name', 'X', '--owner-email', 'x@y.test', '--plan', 'free', '--created-at', 'yesterday'], 'VALIDATION_ERROR'],
    [['org:create', '--name', 'X', '--owner-email', 'x@y.test', '--plan', 'free', '--mode', 'staging'], 'VALIDATION_ERROR'],
    [['org:status', '--org', 'nope', '--status', 'active'], 'VALIDATION_ERROR'],
    [['org:status', '--org', '01900000-0000-7000-8000-000000000000', '--status', 'active'], 'NOT_FOUND'],
    [['org:status', '--org', '01900000-0000-7000-8000-000000000000', '--status', 'gone'], 'VALIDATION_ERROR'],
    [['org:review', '--org', '01900000-0000-7000-8000-000000000000', '--approve', '--revoke'], 'VALIDATION_ERROR'],
    [['org:rate-limit', '--org', '01900000-0000-7000-8000-000000000000', '--limit', '0'], 'VALIDATION_ERROR'],
    [['org:explode'], 'VALIDATION_ERROR'],
  ])('refuses %j with %s', async (argv, code) => {
    await expect(run(argv)).rejects.toMatchObject({ appCode: code });
  });
});

describe('npm run admin (a separate process)', () => {
  it('creates an organization with a full_access live key and prints the documented JSON', async () => {
    const created = await admin('org:create', '--name', 'Acme', '--owner-email', 'Owner@Acme.test', '--plan', '10k', '--created-at', '2026-01-01T00:00:00Z');
    expect(created.code, created.output).toBe(0);
    expect(created.json).toEqual({ organizationId: expect.stringMatching(/^[0-9a-f-]{36}$/), apiKey: expect.stringMatching(/^eu_live_/) });
    expect((await admin('org:show', '--org', created.json.organizationId)).json).toMatchObject({
      name: 'Acme', plan: '10k', status: 'active', reviewed: false, overageEnabled: false, ownerEmail: 'owner@acme.test', createdAt: '2026-01-01T00:00:00.000Z',
    });
  }, 120_000);

  it('pauses a provider for everyone, shows it in delivery:status, and resumes it', async () => {
    const paused = await admin('delivery:pause', '--provider', 'Orange', '--reason', 'delisting under way');
    expect(paused.code, paused.output).toBe(0);
    expect(paused.json.status).toMatchObject({
      provider: 'orange',
      label: 'Orange / Wanadoo',
      limits: { connections: 3, messagesPerConnection: 20, messagesPerMinute: 300 },
      lanes: [{ sendingDomain: '*', paused: { by: 'operator', reason: 'delisting under way', until: null } }],
    });
    const status = await admin('delivery:status');
    expect(status.json.providers).toEqual([expect.objectContaining({ provider: 'orange', queued: 0 })]);
    const resumed = await admin('delivery:resume', '--provider', 'orange');
    expect(resumed.code, resumed.output).toBe(0);
    // Nothing queued, no rate, no pause: nothing left to show.
    expect(resumed.json).toEqual({ provider: 'orange', status: null });
  }, 120_000);

  it('answers bad input with a JSON error on stderr and exit 2', async () => {
    const result = await admin('org:create', '--name', 'X', '--owner-email', 'x@y.test', '--plan', 'gold');
    expect(result.code).toBe(2);
    expect(result.json).toEqual({ error: expect.stringMatching(/unknown plan "gold"/), code: 'VALIDATION_ERROR' });
  }, 120_000);

  it('goes through the running server, which refuses a second server on the same DATA_DIR and stops cleanly on SIGTERM', async () => {
    const { server, bouncePort } = await startServerOnFreeBouncePort();
    try {
      expect(await smtpGreeting(bouncePort)).toMatch(/^220 /);
      const port = /listening on port (\d+)/.exec(server.output())![1];
      const created = await admin('org:create', '--name', 'Live', '--owner-email', 'o@live.test', '--plan', 'free');
      expect(created.code, created.output).toBe(0);
      // The key exists in the running server's database: the CLI did not open its own copy.
      const response = await fetch(`http://127.0.0.1:${port}/api/api-keys`, { headers: { authorization: `Bearer ${created.json.apiKey}` } });
      expect(response.status).toBe(200);
      // The records of the service's own mail carry the key the server signs with (generated into DATA_DIR at its start).
      const records = await admin('system-mail:records');
      expect(records.code, records.output).toBe(0);
      const publicKey = createPublicKey(fs.readFileSync(path.join(dataDir, 'system-mail-dkim.pem'), 'utf8')).export({ type: 'spki', format: 'der' }).toString('base64');
      expect(records.json).toMatchObject({ domain: '127.0.0.1', records: expect.arrayContaining([expect.objectContaining({ record: 'DKIM', value: `v=DKIM1; k=rsa; p=${publicKey}` })]) });

      if (!env.DATABASE_URL) {
        const rival = bundle.run('main', env);
        expect(await rival.exited).toBe(1);
        expect(rival.output()).toMatch(/DATA_DIR .* is in use by process \d+/);
      }

      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(server.output()).toMatch(/SIGTERM: stopping/);
      expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, 120_000);
});
