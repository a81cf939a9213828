import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { TestClock } from '@/server/clock';
import { loadConfig, type Config } from '@/server/config';
import { createHttpServer, createRequestListener, type NextHandler } from '@/server/http/server';
import { createPublicEntryLimits } from '@/server/http/public-entry-limit';
import { silentLog, type Log } from '@/server/log';
import type { SystemMailer } from '@/server/mail/system-mailer';
import { createRuntime, type Runtime } from '@/server/runtime';
import { createOrganizationWithKey } from '@/server/services/organizations/organizations';
import { openDatabase } from '@/db/client';
import { openTestDatabase, resetDatabase } from './database';
import { startDnsServer, type DnsServer } from './dns';

export interface TestApp {
  url: string;
  /** The loopback DNS server every lookup of this app goes to (tests never query real DNS). */
  dns: DnsServer;
  runtime: Runtime;
  clock: TestClock;
  /** Empties the database and puts the clock back, between tests. */
  reset(): Promise<void>;
  close(): Promise<void>;
  createOrg(input?: { plan?: string; name?: string; ownerEmail?: string; createdAt?: Date }): Promise<{ organizationId: string; apiKey: string }>;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  systemMailer?: SystemMailer;
  /** Run the embedded runner (off by default: tests drive sweeps themselves). */
  runner?: boolean;
  /**
   * Serve from the same database as another app, as a second process would: its own connection
   * pool on Postgres (PGlite is one connection, so there the instance is shared). Only the first
   * app resets and drops the database.
   */
  shareDatabaseWith?: TestApp;
  /** Stands in for Next (the dashboard and its route handlers) behind the listener. */
  next?: NextHandler;
  /** Where the app's log lines go (default: nowhere). */
  log?: Log;
}

/** The real HTTP server on a loopback port, over a real database, with a test clock. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const shared = options.shareDatabaseWith?.runtime.database;
  const database = shared
    ? shared.url
      ? { ...(await openDatabase({ url: shared.url })), drop: async () => {} }
      : { ...shared, close: async () => {}, drop: async () => {} }
    : await openTestDatabase();
  const clock = new TestClock();
  const dns = await startDnsServer();
  const config: Config = loadConfig({
    DNS_SERVERS: dns.address,
    NODE_ENV: 'test',
    DATA_DIR: `/tmp/eumail-test-${process.pid}`,
    SMTP_GATEWAY_PORT: '0',
    BOUNCE_SMTP_PORT: '0',
    SMTP_GATEWAY_TLS_PORT: '0',
    APP_URL: 'http://127.0.0.1:3000',
    BETTER_AUTH_SECRET: 'test-secret-test-secret-test-secret-00',
    ...options.env,
  });
  const runtime = await createRuntime(config, { database, clock, systemMailer: options.systemMailer, runner: options.runner ?? false, log: options.log ?? silentLog });
  const entryLimits = createPublicEntryLimits(clock);
  const server: Server = createHttpServer(createRequestListener(runtime, { next: options.next, entryLimits }), runtime.deps.log, runtime.config);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const start = clock.now();

  return {
    url,
    dns,
    runtime,
    clock,
    async reset() {
      // Traffic shaping's memory: forgotten and its writes finished before the truncate (nothing of
      // the last test is written after it), and forgotten again after it (a periodic sync that read
      // the old rows meanwhile is discarded).
      runtime.deps.shaping.reset();
      await runtime.deps.shaping.settled();
      await resetDatabase(database);
      runtime.deps.shaping.reset();
      clock.set(start);
      entryLimits.reset();
      dns.clear();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runtime.runner?.stop();
      await runtime.deps.claims.stop();
      await runtime.deps.templateRenderer.close();
      if (shared) await database.close();
      await database.drop();
      await dns.close();
    },
    createOrg(input = {}) {
      return createOrganizationWithKey(runtime.deps, {
        name: input.name ?? 'Acme',
        ownerEmail: input.ownerEmail ?? 'owner@acme.test',
        plan: input.plan ?? '10k',
        createdAt: input.createdAt,
      });
    },
    async request(method, path, requestOptions = {}) {
      const headers: Record<string, string> = { ...requestOptions.headers };
      if (requestOptions.key) headers.authorization = `Bearer ${requestOptions.key}`;
      let body: string | FormData | undefined = requestOptions.rawBody;
      // A form (multipart/form-data, its boundary chosen by fetch) goes as it is.
      if (requestOptions.body instanceof FormData) body = requestOptions.body;
      else if (requestOptions.body !== undefined) {
        body = JSON.stringify(requestOptions.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${url}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, headers: response.headers, body: parsed, text };
    },
  };
}
