import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@/server/config';
import { silentLog } from '@/server/log';
import { createRuntime, stopRuntime, type Runtime } from '@/server/runtime';
import { admitApiKey } from '@/server/services/api-keys/admission';
import { registerDomain } from '@/server/services/domains/crud';
import { sweepDomainChecks } from '@/server/services/domains/verification';
import { OPERATOR } from '@/server/services/audit/record';
import { createOrganizationWithKey, setRateLimit, setReviewed } from '@/server/services/organizations/organizations';
import { startDnsServer, type DnsServer } from './dns';
import { publishRecords } from './domains';
import type { Spawned } from './process';

export interface FaultWorld {
  dns: DnsServer;
  /** The environment of every service process of the world (add ROLES, PORT, ...). */
  env: Record<string, string>;
  /** The test's own view of the database, through the services. */
  runtime: Runtime;
  apiKey: string;
  organizationId: string;
  from: string;
  close(): Promise<void>;
}

/**
 * What the fault tests' service processes share: a database, a loopback DNS server, a sink as
 * the smarthost, and an organization with a verified sending domain, set up through the services
 * as a customer would leave it (example.net, the recipients' domain, has an MX).
 */
export async function faultWorld(options: { databaseUrl: string; relayUrl: string }): Promise<FaultWorld> {
  const dns = await startDnsServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eumail-faults-'));
  const env: Record<string, string> = {
    DATABASE_URL: options.databaseUrl,
    DNS_SERVERS: dns.address,
    SMTP_RELAY_URL: options.relayUrl,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    BETTER_AUTH_SECRET: randomBytes(24).toString('hex'),
    BOUNCE_SMTP_PORT: '0',
    SMTP_GATEWAY_PORT: '0',
    SMTP_GATEWAY_TLS_PORT: '0',
    DASHBOARD: 'off',
    DATA_DIR: dataDir,
    APP_URL: 'http://127.0.0.1:3000',
    HOST: '127.0.0.1',
    PORT: '0',
    NODE_ENV: 'production',
  };
  const runtime = await createRuntime(loadConfig({ ...env, ROLES: 'web' }), { runner: false, log: silentLog });
  const { deps } = runtime;
  // Settled and reviewed: the fault tests send thousands of identical emails, which the new-account
  // ceiling and the list-send review would otherwise hold.
  const { organizationId, apiKey } = await createOrganizationWithKey(deps, { name: 'Faults', ownerEmail: 'owner@faults.test', plan: '1m', createdAt: new Date(deps.clock.now().getTime() - 60 * 86_400_000) });
  await setReviewed(deps, organizationId, true, OPERATOR);
  await setRateLimit(deps, organizationId, 100_000, OPERATOR);
  const admission = await admitApiKey(deps, apiKey);
  const domain = await registerDomain(deps, admission!.principal, { name: 'faults.example.com' });
  publishRecords(dns, domain.records);
  await sweepDomainChecks(deps);
  dns.mx('example.net', 'mx.example.net');
  dns.a('mx.example.net', '127.0.0.1');
  return {
    dns,
    env,
    runtime,
    apiKey,
    organizationId,
    from: 'Faults <hello@faults.example.com>',
    async close() {
      await stopRuntime(runtime).catch(() => undefined);
      await dns.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The port a started service process listens on, from its start-up line. */
export const listeningPort = (spawned: Spawned) => Number(/listening on port (\d+)/.exec(spawned.output())?.[1]);

/** The worker id a started service process claims work as, from its start-up line. */
export const workerIdOf = (spawned: Spawned) => /as worker ([0-9a-f-]{36})/.exec(spawned.output())?.[1] ?? null;

/** One API call with a key (a JSON body when given), and how long its answer took. */
export async function timedRequest(method: string, url: string, key?: string, body?: unknown): Promise<{ status: number; body: any; ms: number; headers: Headers }> {
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, ms: performance.now() - started, headers: response.headers };
}

export const postJson = (url: string, key: string, body: unknown) => timedRequest('POST', url, key, body);
