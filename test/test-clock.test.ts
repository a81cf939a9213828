import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from '@/db/client';
import { testClock } from '@/db/schema';
import { parseDuration } from '@/server/admin/clock-commands';
import { parseAdminArgs, runAdminCommand } from '@/server/admin/commands';
import { loadConfig } from '@/server/config';
import { lockDataDir, writeAdminEndpoint } from '@/server/data-dir';
import type { Deps } from '@/server/deps';
import { createHttpServer, createRequestListener } from '@/server/http/server';
import { silentLog } from '@/server/log';
import { getOrganization } from '@/server/services/organizations/organizations';
import { SharedTestClock } from '@/server/shared-test-clock';
import { startTestApp, type TestApp } from './support/app';
import { captureLog } from './support/log-capture';
import { runEntry } from './support/process';

// Real databases throughout: the app's (PGlite, or a fresh Postgres database with DATABASE_URL),
// and on Postgres a second connection pool standing in for a second process.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('clock:advance --by', () => {
  it.each([
    ['1d', DAY],
    ['6h', 6 * HOUR],
    ['30m', 30 * 60_000],
    ['90s', 90_000],
    ['500ms', 500],
    ['-1h', -HOUR],
    ['+2d', 2 * DAY],
    ['36600d', 36_600 * DAY],
    ['-36600d', -36_600 * DAY],
  ])('reads %s as %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '1', 'd', '1.5h', '1w', '1D', '1M', '1 d', ' 1d', '1d ', '1d2h', '1e3s', '--1d', '0s', '-0m', '36601d', 'one day', '0x10s'])(
    'refuses %j with VALIDATION_ERROR',
    (text) => {
      expect(() => parseDuration(text)).toThrowError(expect.objectContaining({ appCode: 'VALIDATION_ERROR', message: expect.stringMatching(/--by/) }));
    },
  );
});

/** Waits (without sleeping blindly) until `seen()` holds, and fails if that takes more than a second. */
async function seenWithinASecond(seen: () => boolean, what: string): Promise<void> {
  const started = performance.now();
  while (!seen()) {
    if (performance.now() - started > 1_000) throw new Error(`not seen within a second: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the shared test clock', () => {
  let app: TestApp;
  let deps: Deps;
  /** A second process's view of the same database: its own pool on Postgres; PGlite has one connection. */
  let other: Database;
  const clocks: SharedTestClock[] = [];

  beforeAll(async () => {
    app = await startTestApp({ env: { TEST_CLOCK: 'on' } });
    deps = app.runtime.deps;
    const database = app.runtime.database;
    other = database.url ? await openDatabase({ url: database.url, poolSize: 2 }) : database;
  });
  afterEach(async () => {
    await Promise.all(clocks.splice(0).map((clock) => clock.stop()));
    // Only the clock's row matters between these tests (emptying every table costs a second on Postgres).
    await deps.db.delete(testClock);
  });
  afterAll(async () => {
    if (other !== app.runtime.database) await other.close();
    await app.close();
  });

  const sharedClock = async (db: Db = deps.db) => {
    const clock = new SharedTestClock(db, silentLog);
    await clock.start();
    clocks.push(clock);
    return clock;
  };
  const run = (argv: string[], using: Deps = deps) => {
    const { command, args } = parseAdminArgs(argv);
    return runAdminCommand(using, command, args) as Promise<{ now: string; offsetMs: number }>;
  };

  it('starts at real time when nobody moved it, and clock:show says so', async () => {
    const clock = await sharedClock();
    expect(clock.currentOffsetMs()).toBe(0);
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(50);
    const shown = await run(['clock:show']);
    expect(shown.offsetMs).toBe(0);
    expect(Math.abs(Date.parse(shown.now) - Date.now())).toBeLessThan(1_000);
  });

  it('clock:set and clock:advance move now(): at once in the process that ran them, within a second in another', async () => {
    const mine = await sharedClock();
    const theirs = await sharedClock(other.db);
    const at = Date.parse('2030-01-01T00:00:00Z');

    const set = await run(['clock:set', '--at', '2030-01-01T00:00:00Z'], { ...deps, clock: mine });
    expect(Math.abs(Date.parse(set.now) - at)).toBeLessThan(1_000);
    expect(mine.currentOffsetMs()).toBe(set.offsetMs);
    expect(Math.abs(mine.now().getTime() - at)).toBeLessThan(1_000);
    await seenWithinASecond(() => theirs.currentOffsetMs() === set.offsetMs, 'clock:set in the other clock');
    expect(Math.abs(theirs.now().getTime() - at)).toBeLessThan(2_000);

    const advanced = await run(['clock:advance', '--by', '6h'], { ...deps, clock: mine });
    expect(advanced.offsetMs).toBe(set.offsetMs + 6 * HOUR);
    expect(mine.now().getTime() - at).toBeGreaterThanOrEqual(6 * HOUR);
    await seenWithinASecond(() => theirs.now().getTime() - at >= 6 * HOUR, 'clock:advance in the other clock');
    expect((await run(['clock:show'])).offsetMs).toBe(advanced.offsetMs);

    // Back in time is allowed (docs/test-clock.md says what it may confuse).
    const back = await run(['clock:advance', '--by', '-1d']);
    expect(back.offsetMs).toBe(advanced.offsetMs - DAY);
    await seenWithinASecond(() => mine.currentOffsetMs() === back.offsetMs && theirs.currentOffsetMs() === back.offsetMs, 'a step back in both clocks');
  });

  it('two independent clocks on the database both see a change within a second', async () => {
    const [first, second] = [await sharedClock(deps.db), await sharedClock(other.db)];
    const { offsetMs } = await run(['clock:advance', '--by', '1d']);
    expect(offsetMs).toBe(DAY);
    await Promise.all([
      seenWithinASecond(() => first.currentOffsetMs() === DAY, 'the first clock'),
      seenWithinASecond(() => second.currentOffsetMs() === DAY, 'the second clock'),
    ]);
    expect(first.now().getTime() - Date.now()).toBeGreaterThan(DAY - 1_000);
    expect(second.now().getTime() - Date.now()).toBeGreaterThan(DAY - 1_000);
  });

  it('two advances at once both count: the offset is added in SQL', async () => {
    await Promise.all([run(['clock:advance', '--by', '1h']), run(['clock:advance', '--by', '2h'], { ...deps, db: other.db })]);
    expect((await run(['clock:show'])).offsetMs).toBe(3 * HOUR);
  });

  it('crosses a UTC day and a month boundary, and the rules reading the clock see it', async () => {
    const clock = await sharedClock();
    const moved = { ...deps, clock };
    await run(['clock:set', '--at', '2026-01-31T23:59:00Z'], moved);
    expect(clock.now().toISOString().slice(0, 10)).toBe('2026-01-31');
    await run(['clock:advance', '--by', '2m'], moved);
    const now = clock.now();
    expect([now.getUTCFullYear(), now.getUTCMonth() + 1, now.getUTCDate()]).toEqual([2026, 2, 1]);
    expect(now.getTime() - Date.parse('2026-02-01T00:01:00Z')).toBeGreaterThanOrEqual(0);
    expect(now.getTime() - Date.parse('2026-02-01T00:01:00Z')).toBeLessThan(5_000);

    // A rule takes its time from deps.clock: an organization created now is created in February.
    const { organizationId } = await runAdminCommand(moved, 'org:create', { name: 'Feb', 'owner-email': 'o@feb.test', plan: 'free' }) as { organizationId: string };
    expect((await getOrganization(moved, organizationId)).createdAt.toISOString().slice(0, 10)).toBe('2026-02-01');
  });

  it.each([
    [['clock:set'], /--at is required/],
    [['clock:set', '--at', 'tomorrow'], /--at must be an ISO 8601/],
    [['clock:set', '--at', '2026-02-30'], /--at must be an ISO 8601/],
    [['clock:set', '--at', '2026-01-01T24:00:00Z'], /--at must be an ISO 8601/],
    [['clock:set', '--at', '2026-01-01T10:00:00'], /--at must be an ISO 8601.*zone/],
    [['clock:advance'], /--by is required/],
    [['clock:advance', '--by'], /--by is required/],
    [['clock:advance', '--by', '1w'], /--by must be a whole number/],
  ])('refuses %j with VALIDATION_ERROR', async (argv, message) => {
    await expect(run(argv)).rejects.toMatchObject({ appCode: 'VALIDATION_ERROR', message: expect.stringMatching(message) });
    expect((await run(['clock:show'])).offsetMs).toBe(0);
  });

  it('clock:set accepts a date alone (midnight UTC) and a time with an offset', async () => {
    expect(Math.abs(Date.parse((await run(['clock:set', '--at', '2031-05-01'])).now) - Date.parse('2031-05-01T00:00:00Z'))).toBeLessThan(1_000);
    expect(Math.abs(Date.parse((await run(['clock:set', '--at', '2031-05-01T02:00:00+02:00'])).now) - Date.parse('2031-05-01T00:00:00Z'))).toBeLessThan(1_000);
  });

  it('every clock command is refused without TEST_CLOCK=on, and nothing moves', async () => {
    const off = { ...deps, config: { ...deps.config, testClock: false } };
    for (const argv of [['clock:show'], ['clock:set', '--at', '2030-01-01T00:00:00Z'], ['clock:advance', '--by', '1d']]) {
      await expect(run(argv, off)).rejects.toMatchObject({ appCode: 'FORBIDDEN', message: expect.stringMatching(/needs TEST_CLOCK=on/) });
    }
    expect((await run(['clock:show'])).offsetMs).toBe(0);
  });

  it("through a server's admin endpoint (the CLI's way on PGlite) the server's TEST_CLOCK decides", async () => {
    const token = 'admin-token-of-this-test';
    const serve = async (testClock: boolean) => {
      const runtime = { ...app.runtime, deps: { ...deps, config: { ...deps.config, testClock } } };
      const server = createHttpServer(createRequestListener(runtime, { adminToken: token }), silentLog);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return server;
    };
    const [on, off] = [await serve(true), await serve(false)];
    try {
      const command = (server: typeof on) =>
        fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/admin/command`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-admin-token': token },
          body: JSON.stringify({ command: 'clock:advance', args: { by: '30m' } }),
        });
      const refused = await command(off);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: expect.stringMatching(/needs TEST_CLOCK=on/), code: 'FORBIDDEN' });
      const moved = await command(on);
      expect(moved.status).toBe(200);
      expect(await moved.json()).toEqual({ now: expect.any(String), offsetMs: 30 * 60_000 });
    } finally {
      for (const server of [on, off]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });

  it('a failed read keeps the last offset, is logged once, and the clock catches up when the database answers', async () => {
    await run(['clock:advance', '--by', '1h']);
    const captured = captureLog('info');
    const clock = new SharedTestClock(deps.db, captured.log, 20);
    clocks.push(clock);
    await clock.start();
    expect(clock.currentOffsetMs()).toBe(HOUR);
    // The table goes away under the clock: every read fails until it is back.
    await deps.db.execute(sql`alter table test_clock rename to test_clock_away`);
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(clock.currentOffsetMs()).toBe(HOUR);
      expect(captured.lines.filter((line) => line.level === 40)).toEqual([expect.objectContaining({ msg: expect.stringMatching(/cannot read the shared offset/) })]);
      await deps.db.execute(sql`update test_clock_away set offset_ms = ${2 * HOUR}`);
    } finally {
      await deps.db.execute(sql`alter table test_clock_away rename to test_clock`);
    }
    await seenWithinASecond(() => clock.currentOffsetMs() === 2 * HOUR, 'the offset after the database answers');
    expect(captured.lines.filter((line) => line.level === 30)).toEqual([expect.objectContaining({ msg: expect.stringMatching(/readable again/) })]);
  });

  it('npm run admin: the clock commands from a separate process, in either storage mode', async () => {
    const watching = await sharedClock();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eumail-clock-'));
    const json = (output: string) => JSON.parse(output.split('\n').find((line) => line.startsWith('{')) ?? 'null');
    let env: Record<string, string>;
    let releaseLock = () => {};
    let server: Server | null = null;
    if (app.runtime.database.url) {
      // Postgres: the CLI opens the database itself, and needs TEST_CLOCK=on of its own.
      env = { DATA_DIR: dataDir, DATABASE_URL: app.runtime.database.url, TEST_CLOCK: 'on' };
    } else {
      // PGlite: this process holds DATA_DIR as a running server would, so the CLI goes through its
      // admin endpoint, and the server's TEST_CLOCK decides (the CLI's own environment has none).
      const token = 'admin-token-of-this-test';
      server = createHttpServer(createRequestListener({ ...app.runtime, deps: { ...deps, clock: watching } }, { adminToken: token }), silentLog);
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      releaseLock = lockDataDir(dataDir);
      writeAdminEndpoint(dataDir, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/admin/command`, token, pid: process.pid });
      env = { DATA_DIR: dataDir };
    }
    try {
      const moved = await runEntry('server/admin/cli.ts', ['clock:advance', '--by', '1d'], env);
      expect(moved.code, moved.output).toBe(0);
      const answer = json(moved.output);
      expect(answer).toEqual({ now: expect.any(String), offsetMs: DAY });
      expect(Date.parse(answer.now) - Date.now()).toBeGreaterThan(DAY - 60_000);
      await seenWithinASecond(() => watching.currentOffsetMs() === DAY, "the CLI's advance in this process's clock");
    } finally {
      releaseLock();
      server?.closeAllConnections();
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('TEST_CLOCK', () => {
  it('is on or off, off by default; anything else is a configuration error naming it', () => {
    expect(loadConfig({}).testClock).toBe(false);
    expect(loadConfig({ TEST_CLOCK: 'on' }).testClock).toBe(true);
    expect(loadConfig({ TEST_CLOCK: 'off' }).testClock).toBe(false);
    expect(() => loadConfig({ TEST_CLOCK: 'yes' })).toThrowError('Invalid configuration: TEST_CLOCK must be on or off (got "yes")');
  });
});
