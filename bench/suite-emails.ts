/**
 * `BENCH_SUITE=emails npm run bench`: the sending side of the service, each figure next to a bare
 * node:http + postgres-js (or bare nodemailer) floor measured in the same run. Four parts
 * (BENCH_EMAIL_PARTS, default send,batch,deliver,list):
 *
 *   send     POST /api/emails, one email per request, live keys of BENCH_EMAIL_ORGS organizations
 *            with verified domains; recipients on a domain whose MX is on a loopback DNS server
 *            (DNS_SERVERS), vs bench/bare-emails-server.ts doing one INSERT.
 *   batch    POST /api/emails/batch, 100 emails per request, vs one multi-row INSERT of 100 rows.
 *   deliver  BENCH_DELIVER_COUNT queued emails (written by the service's own sendEmail), then the
 *            service's sweepEmailDispatch again and again until none is due (bench/dispatch-worker.ts),
 *            through the pooled relay (SMTP_RELAY_URL) and straight to the MX (SMTP_MX_PORT), into
 *            a loopback SMTP sink; vs bare nodemailer sending as many DKIM-signed messages.
 *   list     BENCH_LIST_ROWS emails seeded with SQL over four organizations, then
 *            GET /api/emails?status= / to= / tag= / from= (limit 10) with autocannon, and
 *            EXPLAIN (ANALYZE, BUFFERS) of the exact SQL the service sends for each filter.
 *
 * The REST target is bench/rest-server.ts: createRuntime(config, { runner: false }), so nothing is
 * delivered while sends are measured (checked: every accepted email is still queued afterwards).
 * The DNS server and the SMTP sink run in bench/loopback-peer.ts. Results: a table per part on
 * stdout and bench/results/emails-latest.json. With pg_stat_statements loaded in the bench's Postgres
 * (BENCH_PG_URL), each measure also reports its statements per email.
 *
 * Knobs: BENCH_EMAIL_ORGS (100), BENCH_CONNECTIONS (50), BENCH_BATCH_CONNECTIONS (4),
 * BENCH_DURATION (10 s), BENCH_WARMUP (3 s), BENCH_DELIVER_COUNT (2000), BENCH_DELIVER_SECONDS
 * (30: a delivery run starts no sweep after that and is rated over what it delivered), BENCH_LIST_ROWS
 * (1000000), BENCH_LIST_DURATION (5 s), BENCH_LIST_CONNECTIONS (10), BENCH_EMAIL_PARTS, BENCH_PROFILE=1,
 * BENCH_EMAIL_ORDER=spread (single sends interleave the organizations), BENCH_EMAIL_BODY=html-only
 * (the receipt as an HTML fragment without text: delivery wraps it and derives the text),
 * BENCH_EMAIL_TARGETS (rest,services,bare: which targets the parts measure, in that order), BENCH_EMAIL_KEEP_ROWS=1
 * (a measure starts with the emails the measures before it stored, instead of from the seeded database); with BENCH_COMPARE_DIR,
 * BENCH_COMPARE_ROUNDS (6) and BENCH_COMPARE_WARMUP_ROUNDS (1, not counted).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { authenticate } from 'mailauth';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import * as schema from '../db/schema';
import type { Db } from '../db/client';
import { loadConfig } from '../server/config';
import { createRuntime, stopRuntime, type Runtime } from '../server/runtime';
import { createResolver } from '../server/net/dns';
import { admitApiKey } from '../server/services/api-keys/admission';
import { registerDomain } from '../server/services/domains/crud';
import { signingKeyOf } from '../server/services/domains/signing';
import { toSendEmailInput } from '../server/routers/emails/wire';
import { sendEmail } from '../server/services/emails/accept/send';
import { listEmails, type EmailFilter } from '../server/services/emails/read';
import { OPERATOR } from '../server/services/audit/record';
import { createOrganizationWithKey, setRateLimit, setReviewed } from '../server/services/organizations/organizations';
import type { Principal } from '../server/services/shared/principal';
import type { BareSmtpJob, BareSmtpRun } from './bare-smtp';
import type { DispatchRun } from './dispatch-worker';
import {
  cpuWindow,
  createDatabase,
  dataDir,
  fixed,
  forkWorker,
  int,
  log,
  machineInfo,
  noteLoadAverage,
  onCleanup,
  printTable,
  runLoad,
  startServer,
  stopChild,
  writeResult,
  type CpuUsage,
  type Worker,
} from './harness';
import type { LoadRequest, LoadSummary } from './load';
import type { PeerStats, Sample } from './loopback-peer';

const PARTS = ['send', 'batch', 'deliver', 'list'] as const;
type Part = (typeof PARTS)[number];

const settings = {
  organizations: int('BENCH_EMAIL_ORGS', 100, 4),
  connections: int('BENCH_CONNECTIONS', 50),
  batchConnections: int('BENCH_BATCH_CONNECTIONS', 4),
  durationSeconds: int('BENCH_DURATION', 10),
  warmupSeconds: int('BENCH_WARMUP', 3),
  deliverCount: int('BENCH_DELIVER_COUNT', 2000),
  /** A delivery run stops starting sweeps after this; the rate is then over what it delivered. */
  deliverSeconds: int('BENCH_DELIVER_SECONDS', 30),
  listRows: int('BENCH_LIST_ROWS', 1_000_000, 1_000),
  listDurationSeconds: int('BENCH_LIST_DURATION', 5),
  // Fewer than for the sends: the figure here is the latency of a page, not the most pages a second.
  listConnections: int('BENCH_LIST_CONNECTIONS', 10),
  listWarmupSeconds: 1,
  batchSize: 100,
  poolSize: 10,
  rateLimit: 1_000_000,
  profile: process.env.BENCH_PROFILE === '1',
  /** Another checkout (e.g. a worktree of an older commit): send and batch alternate between its REST server and this one. */
  compareDir: process.env.BENCH_COMPARE_DIR || null,
  compareRounds: int('BENCH_COMPARE_ROUNDS', 6),
  compareWarmupRounds: int('BENCH_COMPARE_WARMUP_ROUNDS', 1, 0),
  order: process.env.BENCH_EMAIL_ORDER === 'spread' ? ('spread' as const) : ('grouped' as const),
  /** Which of rest, services and bare the send, batch and list parts measure (all three unless told). */
  targets: (process.env.BENCH_EMAIL_TARGETS || 'rest,services,bare').split(',').map((s) => s.trim()).filter(Boolean),
  /** `html-only`: every email is the receipt's body as a fragment with no text, so delivery wraps it and derives its text part. */
  htmlOnly: process.env.BENCH_EMAIL_BODY === 'html-only',
  parts: (() => {
    const wanted = (process.env.BENCH_EMAIL_PARTS || PARTS.join(',')).split(',').map((s) => s.trim()).filter(Boolean);
    for (const part of wanted) if (!(PARTS as readonly string[]).includes(part)) throw new Error(`BENCH_EMAIL_PARTS: unknown part "${part}" (use ${PARTS.join(', ')})`);
    return PARTS.filter((part) => wanted.includes(part));
  })(),
};

const TARGETS = {
  send: 1_000,
  batch: 10_000,
  deliver: 500,
  listMs: 50,
};

export const emailsDeadlineMs = () => {
  const load = (warmup: number, duration: number) => (warmup + duration + 25) * 1000;
  const has = (part: Part) => settings.parts.includes(part);
  return (
    120_000 +
    // Three targets, or two per round when comparing checkouts.
    (has('send') ? (settings.compareDir ? 2 * (settings.compareRounds + settings.compareWarmupRounds) : 3) * load(settings.warmupSeconds, settings.durationSeconds) : 0) +
    (has('batch') ? (settings.compareDir ? 2 * (settings.compareRounds + settings.compareWarmupRounds) : 3) * load(settings.warmupSeconds, settings.durationSeconds) : 0) +
    (has('deliver') ? 10 * (90_000 + settings.deliverSeconds * 1000 + settings.deliverCount * 5) : 0) +
    (has('list') ? 600_000 + settings.listRows * 0.3 + 12 * load(settings.listWarmupSeconds, settings.listDurationSeconds) : 0)
  );
};

/* ------------------------------------------------------------------ the world ----------------- */

export const RECIPIENT_DOMAIN = 'rcpt.example.net';
export const RECIPIENT_MX = 'mx.rcpt.example.net';
export const MAIL_HOST = 'mx.eumail.bench';

export const HTML = `<!doctype html><html><body style="font-family:sans-serif">
<h1>Thanks for your order</h1>
<p>Hello Ada,</p>
<p>We received your payment of <strong>EUR 42.00</strong> for order <a href="https://shop.example.com/orders/1234">#1234</a>.
Your receipt is attached to your account; you can download it at any time.</p>
<table><tr><td>Item</td><td>Qty</td><td>Price</td></tr><tr><td>Blue mug</td><td>2</td><td>EUR 18.00</td></tr>
<tr><td>Tea, 250 g</td><td>1</td><td>EUR 6.00</td></tr><tr><td>Shipping</td><td>1</td><td>EUR 0.00</td></tr></table>
<p>Questions? Reply to this email or visit <a href="https://shop.example.com/help">our help pages</a>.</p>
<p style="color:#888">Shop Example GmbH, Musterstrasse 1, 10115 Berlin</p>
</body></html>`;
export const TEXT = 'Thanks for your order. We received your payment of EUR 42.00 for order #1234. Questions? Reply to this email.';
/** The receipt's body without its document (BENCH_EMAIL_BODY=html-only). */
const HTML_FRAGMENT = HTML.replace(/^<!doctype html><html><body[^>]*>\n/, '').replace(/\n<\/body><\/html>$/, '');

interface Org {
  index: number;
  organizationId: string;
  apiKey: string;
  principal: Principal;
  domainId: string;
  domain: string;
  from: string;
  dkimTxt: { name: string; parts: string[] };
}

const emailBody = (org: Org, variant: number) => ({
  from: org.from,
  to: `customer${variant}@${RECIPIENT_DOMAIN}`,
  subject: `Your receipt #${1000 + variant}`,
  ...(settings.htmlOnly ? { html: HTML_FRAGMENT, text: undefined } : { html: HTML, text: TEXT }),
  tags: [
    { name: 'type', value: 'receipt' },
    { name: 'campaign', value: `c${variant % 7}` },
  ],
});

/* ------------------------------------------------------------------ setup --------------------- */

interface World {
  databaseUrl: string;
  sql: postgres.Sql;
  runtime: Runtime;
  peer: Worker;
  dns: string;
  smtpPort: number;
  orgs: Org[];
  serviceEnv: Record<string, string>;
  /** pg_stat_statements is there to read (a Postgres started with it in shared_preload_libraries). */
  statements: boolean;
}

async function setUp(): Promise<World> {
  const { url: databaseUrl } = await createDatabase();
  const peer = forkWorker('peer', 'loopback-peer.ts', {});
  const { dns, smtpPort } = await peer.receive<{ dns: string; smtpPort: number }>(30_000);
  await peer.ask({ op: 'records', mx: [[RECIPIENT_DOMAIN, RECIPIENT_MX]], a: [[RECIPIENT_MX, '127.0.0.1']] });
  log(`loopback DNS on ${dns}, SMTP sink on 127.0.0.1:${smtpPort}`);

  const serviceEnv = {
    DATABASE_URL: databaseUrl,
    DNS_SERVERS: dns,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    MAIL_HOST,
    BENCH_POOL_SIZE: String(settings.poolSize),
  };
  const runtime = await createRuntime(
    loadConfig({ ...serviceEnv, NODE_ENV: 'production', DATA_DIR: dataDir, ROLES: 'web', BETTER_AUTH_SECRET: randomBytes(32).toString('hex') }),
    { runner: false },
  );
  onCleanup(() => stopRuntime(runtime));
  const sql = postgres(databaseUrl, { max: 4, onnotice: () => {} });
  onCleanup(() => sql.end({ timeout: 2 }));

  const started = Date.now();
  const deps = runtime.deps;
  const orgs: Org[] = new Array<Org>(settings.organizations);
  let next = 0;
  // RSA key generation (registerDomain) runs on libuv's pool; 4 at a time keeps both cores busy.
  const worker = async () => {
    for (let i = next++; i < settings.organizations; i = next++) {
      // A settled, reviewed account on the top volume: the benchmark measures sending, not the daily ceiling or the review hold.
      const { organizationId, apiKey } = await createOrganizationWithKey(deps, { name: `Bench org ${i}`, ownerEmail: `owner${i}@bench.example`, plan: '2m', createdAt: new Date(Date.now() - 60 * 86_400_000) });
      await setRateLimit(deps, organizationId, settings.rateLimit, OPERATOR);
      await setReviewed(deps, organizationId, true, OPERATOR);
      const admission = await admitApiKey(deps, apiKey);
      if (!admission) throw new Error('the seeded key does not authenticate');
      const name = `sender${i}.example.com`;
      const view = await registerDomain(deps, admission.principal, { name });
      const dkim = view.records.find((record) => record.record === 'DKIM')!;
      orgs[i] = {
        index: i,
        organizationId,
        apiKey,
        principal: admission.principal,
        domainId: view.id,
        domain: name,
        from: `Shop ${i} <orders@${name}>`,
        dkimTxt: { name: dkim.name, parts: dkim.parts ?? [dkim.value] },
      };
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  // Verified as a DNS check would leave them, without the check (its chain is not measured here).
  await sql`update domains set status = 'verified', verified_at = now(), chain_started_at = null, next_check_at = null, failure_reason = null,
    record_statuses = '{"DKIM":"verified","MX":"verified","SPF":"verified","DMARC":"verified"}'::jsonb`;
  await peer.ask({ op: 'records', txt: orgs.map((org) => [org.dkimTxt.name, org.dkimTxt.parts]) });
  await sql`analyze`;
  log(`seeded ${orgs.length} organizations with a live key and a verified domain (DKIM published) in ${Date.now() - started} ms`);
  const statements = await hasStatements(sql);
  if (statements) log('pg_stat_statements is loaded: each measure reports its statements');
  return { databaseUrl, sql, runtime, peer, dns, smtpPort, orgs, serviceEnv, statements };
}

/* ------------------------------------------------------------------ HTTP loads ---------------- */

interface LoadFigure {
  target: string;
  measure: string;
  requestsPerSecond: number;
  /** Emails accepted (or pages served) per second. */
  itemsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
  serverCpuMsPerItem: number | null;
  postgresCpuMsPerItem: number | null;
  otherCores: number | null;
  /** Sending: rows the database gained over the whole run (warm-up included) against 2xx x items. */
  rowsChecked?: string;
  /** With pg_stat_statements loaded: the statements of the measured run, by execution time per item. */
  statements?: StatementFigure[];
  measured: LoadSummary;
}

/** One statement of pg_stat_statements over a measured run, per item (email or page). */
interface StatementFigure {
  query: string;
  callsPerItem: number;
  execUsPerItem: number;
  planUsPerItem: number;
  meanExecUs: number;
  rowsPerCall: number;
  sharedHitPerCall: number;
  walBytesPerItem: number;
}

/** Whether pg_stat_statements is loaded (shared_preload_libraries) and installed in the bench database. */
async function hasStatements(sql: postgres.Sql): Promise<boolean> {
  try {
    await sql`create extension if not exists pg_stat_statements`;
    await sql`select 1 from pg_stat_statements limit 1`;
    return true;
  } catch {
    return false;
  }
}

async function readStatements(sql: postgres.Sql, items: number): Promise<StatementFigure[]> {
  const rows = await sql<Array<{ query: string; calls: string; total_exec_time: number; total_plan_time: number; rows: string; shared_blks_hit: string; wal_bytes: string }>>`
    select query, calls::text, total_exec_time, total_plan_time, rows::text, shared_blks_hit::text, wal_bytes::text
    from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
      and query not ilike '%pg_stat_statements%' order by total_exec_time desc limit 20`;
  return rows.map((row) => {
    const calls = Math.max(1, Number(row.calls));
    return {
      query: row.query.replace(/\s+/g, ' ').slice(0, 400),
      callsPerItem: Number(row.calls) / items,
      execUsPerItem: (row.total_exec_time * 1000) / items,
      planUsPerItem: (row.total_plan_time * 1000) / items,
      meanExecUs: (row.total_exec_time * 1000) / calls,
      rowsPerCall: Number(row.rows) / calls,
      sharedHitPerCall: Number(row.shared_blks_hit) / calls,
      walBytesPerItem: Number(row.wal_bytes) / items,
    };
  });
}

/**
 * Clears what the previous measure left Postgres to do, so it is not billed to this one: without
 * it, the checkpoint and autovacuum work after a run of single sends (each its own commit) landed
 * in the batch run that followed, and moved it by a fifth from run to run. The previous measure's
 * emails go too (after the check that none moved on), so every measure starts from the seeded
 * database: a target measured second wrote into tables and GIN indexes its predecessor had grown
 * by half a million rows, and paid 0.005-0.009 ms more Postgres CPU per email for it, whichever
 * target it was (docs/benchmarks.md, "Each measure from the seeded database").
 * BENCH_EMAIL_KEEP_ROWS=1 keeps them, as before 2026-12-01.
 */
async function settle(world: World): Promise<void> {
  await checkNothingMoved(world);
  if (process.env.BENCH_EMAIL_KEEP_ROWS !== '1') await world.sql`truncate emails, email_recipients, email_events, events cascade`;
  await world.sql`vacuum (analyze) emails, email_recipients, email_events, events`;
  await world.sql`checkpoint`;
}

/** The REST target runs without the embedded runner: nothing it accepted may have moved on. */
async function checkNothingMoved(world: World): Promise<void> {
  const [moved] = await world.sql<Array<{ n: string }>>`select count(*)::text as n from emails where status <> 'queued'`;
  if (Number(moved!.n) !== 0) throw new Error(`${moved!.n} accepted emails left 'queued' while sends were measured: something delivered`);
}

async function measureLoad(
  world: World,
  target: { id: string; child: { pid?: number }; port: number },
  measure: string,
  requests: LoadRequest[],
  options: { connections: number; warmupSeconds: number; durationSeconds: number; itemsPerRequest: number; countRows?: boolean },
): Promise<LoadFigure> {
  if (options.countRows) await settle(world);
  // Counted after settling: the previous measure's requests still in flight when it stopped have been stored by now.
  const rowsBefore = options.countRows ? await countEmails(world) : 0;
  let window: ReturnType<typeof cpuWindow> | null = null;
  let statementsReset: Promise<unknown> | null = null;
  log(`${target.id} ${measure}: ${options.connections} connections, ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s`);
  const load = await runLoad(
    { url: `http://127.0.0.1:${target.port}/`, keys: [], requests, connections: options.connections, warmupSeconds: options.warmupSeconds, durationSeconds: options.durationSeconds },
    () => {
      window = cpuWindow({ server: target.child.pid });
      if (world.statements) statementsReset = world.sql`select pg_stat_statements_reset()`.catch(() => null);
    },
  );
  const usage: CpuUsage | null = (window as ReturnType<typeof cpuWindow> | null)?.end(load.loadCpuMs ?? 0) ?? null;
  const m = load.measured;
  const ok = m.totalRequests - m.non2xx;
  const items = Math.max(1, ok * options.itemsPerRequest);
  const figure: LoadFigure = {
    target: target.id,
    measure,
    requestsPerSecond: m.requestsPerSecond,
    itemsPerSecond: (ok * options.itemsPerRequest) / m.durationSeconds,
    latencyP50Ms: m.latencyP50Ms,
    latencyP99Ms: m.latencyP99Ms,
    non2xx: m.non2xx,
    errors: m.errors + m.timeouts,
    serverCpuMsPerItem: usage?.processes.server != null ? usage.processes.server / items : null,
    postgresCpuMsPerItem: usage ? usage.postgresMs / items : null,
    otherCores: usage?.otherCores ?? null,
    measured: m,
  };
  if (statementsReset) {
    await statementsReset;
    figure.statements = await readStatements(world.sql, items);
  }
  if (options.countRows) {
    // Every 2xx must have stored its emails (a batch answers 200 even when items fail). Requests
    // still in flight when the warm-up and the measured run stop are stored but not counted.
    const gained = (await countEmails(world)) - rowsBefore;
    const answered = (load.warmup.totalRequests - load.warmup.non2xx + ok) * options.itemsPerRequest;
    figure.rowsChecked = `${gained} rows for ${answered} accepted`;
    if (gained < answered || gained > answered + 2 * options.connections * options.itemsPerRequest) {
      throw new Error(`${target.id} ${measure}: the database gained ${gained} emails, but ${answered} were answered as accepted`);
    }
  }
  log(`${target.id} ${measure}: ${m.requestsPerSecond.toFixed(0)} req/s = ${figure.itemsPerSecond.toFixed(0)}/s, p50 ${m.latencyP50Ms} ms, p99 ${m.latencyP99Ms} ms, non-2xx ${m.non2xx}`);
  return figure;
}

async function countEmails(world: World): Promise<number> {
  const [row] = await world.sql<Array<{ n: string }>>`select count(*)::text as n from emails`;
  return Number(row!.n);
}

async function post(port: number, path: string, key: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}

const ALL_SEND_TARGETS = [
  { id: 'rest', script: 'rest-server.ts', description: 'the service: createRequestListener on createRuntime(config, { runner: false })' },
  { id: 'services', script: 'services-emails-server.ts', description: 'node:http + admitApiKey + the zod schema + sendEmail/sendBatch/listEmails, no tRPC' },
  { id: 'bare', script: 'bare-emails-server.ts', description: 'node:http + postgres-js: key lookup + one INSERT (batch: one multi-row INSERT)' },
];
// Measured in the order named: the first target after the seed meets a colder database, so a
// ratio is best taken from runs in both orders (`rest,bare` and `bare,rest`).
const SEND_TARGETS = settings.targets.flatMap((id) => ALL_SEND_TARGETS.filter((target) => target.id === id));
if (SEND_TARGETS.length === 0) throw new Error(`BENCH_EMAIL_TARGETS: none of rest, services, bare in "${settings.targets.join(',')}"`);

function sendRequests(world: World): { single: LoadRequest[]; batch: LoadRequest[] } {
  const request = (org: World['orgs'][number], variant: number): LoadRequest => ({ method: 'POST', path: '/api/emails', key: org.apiKey, body: JSON.stringify(emailBody(org, variant)) });
  // By default an organization's four requests follow each other, so a few of them are in flight
  // at once (as one busy sender's are); BENCH_EMAIL_ORDER=spread interleaves the organizations.
  const single: LoadRequest[] =
    settings.order === 'spread'
      ? [0, 1, 2, 3].flatMap((variant) => world.orgs.map((org) => request(org, variant)))
      : world.orgs.flatMap((org) => [0, 1, 2, 3].map((variant) => request(org, variant)));
  const batch: LoadRequest[] = world.orgs.map((org) => ({
    method: 'POST' as const,
    path: '/api/emails/batch',
    key: org.apiKey,
    body: JSON.stringify(Array.from({ length: settings.batchSize }, (_, i) => emailBody(org, i))),
  }));
  return { single, batch };
}

async function sendingParts(world: World, parts: Part[]): Promise<LoadFigure[]> {
  const { single, batch } = sendRequests(world);
  const figures: LoadFigure[] = [];
  for (const spec of SEND_TARGETS) {
    log(`${spec.id}: starting (${spec.description})`);
    const { child, port } = await startServer({ id: spec.id, script: spec.script, env: world.serviceEnv, profile: settings.profile });
    try {
      const target = { id: spec.id, child, port };
      const org = world.orgs[0]!;
      const one = await post(port, '/api/emails', org.apiKey, emailBody(org, 0));
      if (one.status !== 200 || typeof one.body?.id !== 'string') throw new Error(`${spec.id}: POST /api/emails answered ${one.status}: ${JSON.stringify(one.body)}`);
      const many = await post(port, '/api/emails/batch', org.apiKey, JSON.parse(batch[0]!.body!));
      const outcomes = many.body?.data as Array<{ id?: string }> | undefined;
      if (many.status !== 200 || outcomes?.length !== settings.batchSize || outcomes.some((o) => !o.id)) {
        throw new Error(`${spec.id}: POST /api/emails/batch answered ${many.status}: ${JSON.stringify(many.body).slice(0, 500)}`);
      }
      if (parts.includes('send')) {
        figures.push(
          await measureLoad(world, target, 'single', single, {
            connections: settings.connections,
            warmupSeconds: settings.warmupSeconds,
            durationSeconds: settings.durationSeconds,
            itemsPerRequest: 1,
            countRows: true,
          }),
        );
      }
      if (parts.includes('batch')) {
        figures.push(
          await measureLoad(world, target, 'batch', batch, {
            connections: settings.batchConnections,
            warmupSeconds: settings.warmupSeconds,
            durationSeconds: settings.durationSeconds,
            itemsPerRequest: settings.batchSize,
            countRows: true,
          }),
        );
      }
    } finally {
      await stopChild(child);
    }
  }
  await checkNothingMoved(world);
  log('checked: every accepted email is still queued (no delivery ran during the send measures)');
  return figures;
}

/* ------------------------------------------------------------------ comparison --------------- */

interface CompareRound {
  round: number;
  measure: string;
  thisPerSecond: number;
  otherPerSecond: number;
  thisCpuMs: number | null;
  otherCpuMs: number | null;
  /** The same split: the server process's and Postgres's CPU per email. */
  thisServerCpuMs: number | null;
  otherServerCpuMs: number | null;
  thisPostgresCpuMs: number | null;
  otherPostgresCpuMs: number | null;
}

/**
 * BENCH_COMPARE_DIR: this REST server and another checkout's, both running on the same database
 * and world, measured in turn (the order flips every round) so that both see the same machine:
 * on a machine whose speed drifts from minute to minute, the ratio within a round holds where
 * separate runs cannot tell 10 % from noise. The other checkout must read this schema (an older
 * commit does: migrations only add).
 */
async function comparePart(world: World, parts: Part[]): Promise<CompareRound[]> {
  const { single, batch } = sendRequests(world);
  const servers = [
    await startServer({ id: 'rest', script: 'rest-server.ts', env: world.serviceEnv, profile: settings.profile }),
    await startServer({ id: 'rest-compare', script: 'rest-server.ts', env: world.serviceEnv, root: settings.compareDir!, profile: settings.profile }),
  ];
  const targets = servers.map((server, i) => ({ id: i === 0 ? 'rest' : 'rest-compare', child: server.child, port: server.port }));
  const measures = [
    ...(parts.includes('send') ? [{ measure: 'single', requests: single, connections: settings.connections, itemsPerRequest: 1 }] : []),
    ...(parts.includes('batch') ? [{ measure: 'batch', requests: batch, connections: settings.batchConnections, itemsPerRequest: settings.batchSize }] : []),
  ];
  const rounds: CompareRound[] = [];
  try {
    // Rounds up to 0 warm both servers and the fresh database up (plans, caches, the first
    // autovacuum of the seeded tables) and are not counted: the first load otherwise falls on
    // whichever goes first in round 1, always this checkout.
    for (let round = 1 - settings.compareWarmupRounds; round <= settings.compareRounds; round += 1) {
      for (const m of measures) {
        const order = Math.abs(round) % 2 === 1 ? [0, 1] : [1, 0];
        const figures: LoadFigure[] = [];
        for (const index of order) {
          figures[index] = await measureLoad(world, targets[index]!, m.measure, m.requests, {
            connections: m.connections,
            warmupSeconds: settings.warmupSeconds,
            durationSeconds: settings.durationSeconds,
            itemsPerRequest: m.itemsPerRequest,
            countRows: true,
          });
        }
        if (round <= 0) {
          log(`warm-up round ${m.measure} (not counted): this ${figures[0]!.itemsPerSecond.toFixed(0)}/s, other ${figures[1]!.itemsPerSecond.toFixed(0)}/s`);
          continue;
        }
        rounds.push({
          round,
          measure: m.measure,
          thisPerSecond: figures[0]!.itemsPerSecond,
          otherPerSecond: figures[1]!.itemsPerSecond,
          thisCpuMs: sumCpu(figures[0]!),
          otherCpuMs: sumCpu(figures[1]!),
          thisServerCpuMs: figures[0]!.serverCpuMsPerItem,
          otherServerCpuMs: figures[1]!.serverCpuMsPerItem,
          thisPostgresCpuMs: figures[0]!.postgresCpuMsPerItem,
          otherPostgresCpuMs: figures[1]!.postgresCpuMsPerItem,
        });
        const last = rounds[rounds.length - 1]!;
        log(`round ${round} ${m.measure}: this ${last.thisPerSecond.toFixed(0)}/s, other ${last.otherPerSecond.toFixed(0)}/s, this/other ${(last.thisPerSecond / last.otherPerSecond).toFixed(3)}`);
      }
    }
  } finally {
    for (const server of servers) await stopChild(server.child);
  }
  return rounds;
}

const sumCpu = (figure: LoadFigure) => (figure.serverCpuMsPerItem != null && figure.postgresCpuMsPerItem != null ? figure.serverCpuMsPerItem + figure.postgresCpuMsPerItem : null);

function printComparison(rounds: CompareRound[]): void {
  printTable(
    ['round', 'measure', 'this /s', 'other /s', 'this/other', 'this CPU ms/email (server + pg)', 'other CPU ms/email (server + pg)'],
    rounds.map((r) => [
      String(r.round),
      r.measure,
      r.thisPerSecond.toFixed(0),
      r.otherPerSecond.toFixed(0),
      (r.thisPerSecond / r.otherPerSecond).toFixed(3),
      `${r.thisCpuMs?.toFixed(3) ?? '-'} (${r.thisServerCpuMs?.toFixed(3) ?? '-'} + ${r.thisPostgresCpuMs?.toFixed(3) ?? '-'})`,
      `${r.otherCpuMs?.toFixed(3) ?? '-'} (${r.otherServerCpuMs?.toFixed(3) ?? '-'} + ${r.otherPostgresCpuMs?.toFixed(3) ?? '-'})`,
    ]),
  );
  for (const measure of [...new Set(rounds.map((r) => r.measure))]) {
    const ratios = rounds.filter((r) => r.measure === measure).map((r) => r.thisPerSecond / r.otherPerSecond);
    const geometric = Math.exp(ratios.reduce((sum, ratio) => sum + Math.log(ratio), 0) / ratios.length);
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(`${measure}: this checkout runs at ${(geometric * 100).toFixed(1)} % of the other (geometric mean of ${ratios.length} rounds; min ${(sorted[0]! * 100).toFixed(1)} %, max ${(sorted[sorted.length - 1]! * 100).toFixed(1)} %)`);
    const cpu = rounds.filter((r) => r.measure === measure && r.thisCpuMs !== null && r.otherCpuMs !== null).map((r) => r.otherCpuMs! / r.thisCpuMs!);
    if (cpu.length > 0) {
      const cpuGeometric = Math.exp(cpu.reduce((sum, ratio) => sum + Math.log(ratio), 0) / cpu.length);
      console.log(`${measure}: by CPU per email (server + Postgres), this checkout does ${(cpuGeometric * 100).toFixed(1)} % of the other's work rate (other's CPU ms / this CPU ms, geometric mean)`);
    }
  }
}

/* ------------------------------------------------------------------ delivery ------------------ */

interface DeliveryFigure {
  variant: string;
  messages: number;
  seconds: number;
  messagesPerSecond: number;
  workerCpuMsPerMessage: number | null;
  postgresCpuMsPerMessage: number | null;
  peerCpuMsPerMessage: number | null;
  otherCores: number | null;
  sinkConnections: number;
  dnsQueries: number;
  dkim: string;
  note?: string;
}

async function seedQueued(world: World, count: number): Promise<void> {
  await world.sql`truncate emails cascade`;
  const started = Date.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const org = world.orgs[i % world.orgs.length]!;
      const { tags: _tags, ...body } = emailBody(org, i);
      await sendEmail(world.runtime.deps, org.principal, toSendEmailInput({ ...body, to: [body.to], tags: [{ name: 'type', value: 'receipt' }] }, undefined));
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  log(`queued ${count} emails with the service's sendEmail in ${Date.now() - started} ms`);
}

async function checkDkim(world: World, samples: Sample[]): Promise<string> {
  const sample = samples[0];
  if (!sample) return 'no message';
  const resolver = createResolver([world.dns]);
  const result = await authenticate(sample.raw, {
    resolver: (name: string, type: string) => resolver.resolve(name, type) as Promise<never>,
    sender: sample.mailFrom,
    ip: '127.0.0.1',
    helo: MAIL_HOST,
    mta: RECIPIENT_MX,
    disableArc: true,
    disableBimi: true,
  });
  const first = result.dkim.results[0];
  const verdict = first ? `${first.status.result} (d=${first.signingDomain})` : 'unsigned';
  if (first?.status.result !== 'pass') throw new Error(`a delivered message's DKIM signature does not verify: ${verdict}`);
  return verdict;
}

async function serviceDelivery(world: World, path: 'relay' | 'mx', loops: number): Promise<DeliveryFigure> {
  const variant = path;
  const env: Record<string, string> =
    path === 'relay' ? { SMTP_RELAY_URL: `smtp://127.0.0.1:${world.smtpPort}` } : { SMTP_MX_PORT: String(world.smtpPort), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8' };
  await seedQueued(world, settings.deliverCount);
  const id = `dispatch-${path}-x${loops}`;
  const worker = forkWorker(id, 'dispatch-worker.ts', { ...world.serviceEnv, ...env }, { profile: settings.profile });
  try {
    await worker.receive<{ ready: true }>(60_000);
    await world.peer.ask({ op: 'reset' });
    log(`service ${variant}: sweepEmailDispatch x ${loops} loop(s) until ${settings.deliverCount} emails are delivered`);
    const window = cpuWindow({ worker: worker.child.pid, peer: world.peer.child.pid });
    const limitMs = settings.deliverSeconds * 1000;
    // A sweep in progress finishes (up to 100 emails each loop) before the loop sees the limit.
    const run = await worker.ask<DispatchRun>({ op: 'run', loops, limitMs }, limitMs + 90_000);
    const usage = window.end();
    const stats = await world.peer.ask<PeerStats>({ op: 'stats' });
    const { samples } = await world.peer.ask<{ samples: Sample[] }>({ op: 'samples' });
    const rows = await world.sql<Array<{ status: string; n: string }>>`select status, count(*)::text as n from emails group by status`;
    const byStatus = Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
    const delivered = byStatus.delivered ?? 0;
    // All of them, or (time-boxed) at least as many as the sweeps handled, each one delivered
    // exactly once. A sweep that spends its budget leaves rows in flight that finish uncounted in
    // `handled` (DispatchRun.leftInFlight), so `handled` may fall short of what was delivered.
    if ((!run.timedOut && delivered !== settings.deliverCount) || delivered < run.handled || stats.messages !== delivered) {
      throw new Error(`service ${variant}: ${delivered} delivered, ${stats.messages} reached the sink, of ${settings.deliverCount} (${JSON.stringify(byStatus)}, run ${JSON.stringify(run)})`);
    }
    const per = (ms: number | null | undefined) => (ms == null ? null : ms / delivered);
    const figure: DeliveryFigure = {
      variant: `service ${variant}${loops > 1 ? ` x${loops} sweeps` : ''}`,
      messages: delivered,
      seconds: run.ms / 1000,
      messagesPerSecond: delivered / (run.ms / 1000),
      workerCpuMsPerMessage: per(usage.processes.worker),
      postgresCpuMsPerMessage: per(usage.postgresMs),
      peerCpuMsPerMessage: per(usage.processes.peer),
      otherCores: usage.otherCores,
      sinkConnections: stats.connections,
      dnsQueries: stats.dnsQueries,
      dkim: await checkDkim(world, samples),
      note:
        `${run.sweeps} sweeps${run.idleSweeps ? `, ${run.idleSweeps} found only emails claimed by another loop` : ''}` +
        (run.timedOut ? `; time-boxed at ${settings.deliverSeconds} s: ${delivered} of ${settings.deliverCount} delivered` : '; all delivered'),
    };
    log(`service ${variant}${loops > 1 ? ` x${loops}` : ''}: ${delivered} delivered in ${figure.seconds.toFixed(1)} s = ${figure.messagesPerSecond.toFixed(0)}/s`);
    return figure;
  } finally {
    await worker.stop();
  }
}

async function bareDelivery(world: World, pooled: boolean, noDelay: boolean): Promise<DeliveryFigure> {
  const org = world.orgs[0]!;
  const key = await signingKeyOf(world.runtime.deps, org.domainId);
  if (!key) throw new Error('no signing key for the bare sender');
  const worker = forkWorker(`bare-smtp${pooled ? '-pooled' : ''}${noDelay ? '-nodelay' : ''}`, 'bare-smtp.ts', {});
  try {
    await worker.receive<{ ready: true }>(30_000);
    await world.peer.ask({ op: 'reset' });
    const body = emailBody(org, 0);
    const job: BareSmtpJob = {
      op: 'run',
      count: settings.deliverCount,
      port: world.smtpPort,
      pooled,
      concurrency: 5,
      noDelay,
      dkim: { domainName: org.domain, keySelector: key.selector, privateKey: key.privateKeyPem },
      message: { from: body.from, to: body.to, subject: body.subject, html: body.html, text: body.text },
    };
    const variant =
      (pooled ? 'bare nodemailer, pooled (5 connections)' : 'bare nodemailer, a connection per message (5 at once)') + (noDelay ? ' + TCP_NODELAY' : '');
    log(`${variant}: ${settings.deliverCount} DKIM-signed messages`);
    const window = cpuWindow({ worker: worker.child.pid, peer: world.peer.child.pid });
    const run = await worker.ask<BareSmtpRun>(job, 120_000);
    const usage = window.end();
    const stats = await world.peer.ask<PeerStats>({ op: 'stats' });
    const { samples } = await world.peer.ask<{ samples: Sample[] }>({ op: 'samples' });
    if (run.sent !== settings.deliverCount || stats.messages !== settings.deliverCount) {
      throw new Error(`${variant}: ${run.sent} sent, ${stats.messages} reached the sink (${run.firstError ?? 'no error'})`);
    }
    const per = (ms: number | null | undefined) => (ms == null ? null : ms / run.sent);
    const figure: DeliveryFigure = {
      variant,
      messages: run.sent,
      seconds: run.ms / 1000,
      messagesPerSecond: run.sent / (run.ms / 1000),
      workerCpuMsPerMessage: per(usage.processes.worker),
      postgresCpuMsPerMessage: per(usage.postgresMs),
      peerCpuMsPerMessage: per(usage.processes.peer),
      otherCores: usage.otherCores,
      sinkConnections: stats.connections,
      dnsQueries: stats.dnsQueries,
      dkim: await checkDkim(world, samples),
    };
    log(`${variant}: ${run.sent} in ${figure.seconds.toFixed(1)} s = ${figure.messagesPerSecond.toFixed(0)}/s`);
    return figure;
  } finally {
    await worker.stop();
  }
}

async function deliveryPart(world: World): Promise<DeliveryFigure[]> {
  const figures = [
    // The service as it is: the runner's one sweep loop, then four side by side (four workers).
    await serviceDelivery(world, 'relay', 1),
    await serviceDelivery(world, 'relay', 4),
    await serviceDelivery(world, 'mx', 1),
    await serviceDelivery(world, 'mx', 4),
    // The floor: nodemailer alone, with its defaults (Nagle on) and with TCP_NODELAY as the service sets it.
    await bareDelivery(world, true, false),
    await bareDelivery(world, true, true),
    await bareDelivery(world, false, true),
  ];
  await world.sql`truncate emails cascade`;
  return figures;
}

/* ------------------------------------------------------------------ list ---------------------- */

/** How the seeded emails spread; every share is of all rows. */
const LIST_SHAPE = {
  /** Organizations 0-3 hold 50, 25, 15 and 10 % of the rows. */
  orgShares: [0.5, 0.25, 0.15, 0.1],
  testModeShare: 0.05,
  statuses: [
    ['delivered', 0.855],
    ['sent', 0.06],
    ['bounced', 0.04],
    ['failed', 0.01],
    ['suppressed', 0.01],
    ['queued', 0.005],
    ['scheduled', 0.005],
    ['canceled', 0.005],
    ['complained', 0.003],
    ['sending', 0.007],
  ] as Array<[string, number]>,
  senders: [
    ['orders', 0.6],
    ['billing', 0.2],
    ['support', 0.12],
    ['news', 0.075],
    ['alerts', 0.005],
  ] as Array<[string, number]>,
  /** customer<k>@<one of 10 domains>, k = floor(200000 * random()^3): a few very frequent recipients, a long tail, shared by all organizations. */
  recipients: 200_000,
  types: [
    ['receipt', 0.4],
    ['invoice', 0.2],
    ['welcome', 0.15],
    ['newsletter', 0.15],
    ['reset', 0.1],
  ] as Array<[string, number]>,
  /** 30 % carry campaign:c<n>, n = floor(1000 * random()^2). */
  campaignShare: 0.3,
};

/** A CASE picking a value by cumulative share of a uniform random column. */
function pick(column: string, shares: Array<[string, number]>): string {
  let cumulative = 0;
  const arms = shares.slice(0, -1).map(([value, share]) => {
    cumulative += share;
    return `when ${column} < ${cumulative.toFixed(4)} then '${value}'`;
  });
  return `case ${arms.join(' ')} else '${shares.at(-1)![0]}' end`;
}

function listSeedSql(orgs: Org[], rows: number): string {
  const owners = orgs.slice(0, LIST_SHAPE.orgShares.length);
  let cumulative = 0;
  const orgArms = owners.slice(0, -1).map((org, i) => {
    cumulative += LIST_SHAPE.orgShares[i]!;
    return `when r_org < ${cumulative} then ${org.index}`;
  });
  const orgValues = owners.map((org) => `(${org.index}, '${org.organizationId}'::uuid, '${org.domainId}'::uuid, '${org.principal.keyId}'::uuid, '${org.domain}')`).join(', ');
  const domains = Array.from({ length: 10 }, (_, i) => `'mail${i}.example.org'`).join(', ');
  const spanMs = 30 * 24 * 3_600_000;
  return `
  insert into emails (id, organization_id, mode, domain_id, api_key_id, "from", from_address, "to", cc, bcc, reply_to,
    recipient_addresses, subject, html, text, headers, tags, tag_keys, track_opens, track_clicks, status, scheduled_at,
    next_attempt_at, attempts, message_id, message_date, sent_at, created_at, updated_at)
  select
    (lpad(to_hex(ms), 12, '0') || '7' || lpad(to_hex((i::bigint * 7919) % 4096), 3, '0') || '8' || lpad(to_hex(i), 15, '0'))::uuid,
    o.org_id, mode, o.domain_id, o.key_id,
    initcap(sender) || ' <' || sender || '@' || o.domain || '>', sender || '@' || o.domain,
    rcpts, '{}', '{}', '{}', rcpts,
    'Your ' || kind || ' #' || i, '<p>Hello, here is your ' || kind || ' #' || i || '.</p>', 'Hello, here is your ' || kind || ' #' || i || '.',
    '{}'::jsonb,
    case when campaign is null then jsonb_build_array(jsonb_build_object('name', 'type', 'value', kind))
      else jsonb_build_array(jsonb_build_object('name', 'type', 'value', kind), jsonb_build_object('name', 'campaign', 'value', campaign)) end,
    case when campaign is null then array['type', 'type:' || kind] else array['type', 'type:' || kind, 'campaign', 'campaign:' || campaign] end,
    false, false, status,
    case when status in ('scheduled', 'canceled') then created + interval '1 day' end,
    case when status in ('queued', 'scheduled', 'sending') then created + interval '1 day' end,
    case when status in ('queued', 'scheduled', 'canceled') then 0 else 1 end,
    '<' || i || '@' || o.domain || '>', created,
    case when status not in ('queued', 'scheduled', 'canceled', 'sending') then created + interval '2 seconds' end,
    created, created + interval '3 seconds'
  from (
    select i, ms, to_timestamp(ms / 1000.0) as created,
      case ${orgArms.join(' ')} else ${owners.at(-1)!.index} end as org_index,
      case when r_mode < ${LIST_SHAPE.testModeShare} then 'test' else 'live' end as mode,
      ${pick('r_status', LIST_SHAPE.statuses)} as status,
      ${pick('r_sender', LIST_SHAPE.senders)} as sender,
      ${pick('r_type', LIST_SHAPE.types)} as kind,
      case when r_campaign < ${LIST_SHAPE.campaignShare} then 'c' || floor(1000 * power(r_campaign_n, 2))::int end as campaign,
      case when r_second < 0.1
        then array['customer' || k1 || '@' || (array[${domains}])[k1 % 10 + 1], 'customer' || k2 || '@' || (array[${domains}])[k2 % 10 + 1]]
        else array['customer' || k1 || '@' || (array[${domains}])[k1 % 10 + 1]] end as rcpts
    from (
      select i, (extract(epoch from now()) * 1000)::bigint - ${spanMs}::bigint + (i::bigint * ${spanMs}) / ${rows} as ms,
        random() as r_org, random() as r_mode, random() as r_status, random() as r_sender, random() as r_type,
        random() as r_campaign, random() as r_campaign_n, random() as r_second,
        floor(${LIST_SHAPE.recipients} * power(random(), 3))::int as k1, floor(${LIST_SHAPE.recipients} * random())::int as k2
      from generate_series(1, ${rows}) i
    ) r
  ) s
  join (values ${orgValues}) as o(idx, org_id, domain_id, key_id, domain) on o.idx = s.org_index`;
}

/** The seeded emails' recipients' rows: pending until the email has an outcome, then that outcome. */
const LIST_RECIPIENTS_SEED_SQL = `
  insert into email_recipients (email_id, recipient_index, address, status, attempts, provider)
  select e.id, a.ord - 1, a.address,
    case when e.status in ('sent', 'queued', 'scheduled', 'canceled', 'sending') then 'pending' else e.status end, 1, split_part(a.address, '@', 2)
  from emails e cross join lateral unnest(e.recipient_addresses) with ordinality as a(address, ord)`;

interface ExplainSummary {
  org?: number;
  filter: string;
  value: string;
  rows: number;
  executionMs: number;
  planningMs: number;
  nodes: string;
  sharedHit: number;
  sharedRead: number;
  seqScan: boolean;
  plan: string;
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
}

function describePlan(node: PlanNode): string {
  const self = `${node['Node Type']}${node['Index Name'] ? ` ${node['Index Name']}` : node['Relation Name'] ? ` ${node['Relation Name']}` : ''}` +
    (node['Rows Removed by Filter'] ? ` (${node['Rows Removed by Filter']} removed by filter)` : '');
  const children = (node.Plans ?? []).map(describePlan);
  return children.length === 0 ? self : `${self} <- ${children.length === 1 ? children[0] : `[${children.join(' + ')}]`}`;
}

const hasSeqScan = (node: PlanNode): boolean => node['Node Type'] === 'Seq Scan' || (node.Plans ?? []).some(hasSeqScan);

/** Runs the service's own listEmails on a drizzle instance that records its SQL, then EXPLAINs that SQL. */
async function explainFilters(world: World, org: Org, cases: Array<{ filter: string; value: string; input: Partial<EmailFilter> }>): Promise<ExplainSummary[]> {
  const client = postgres(world.databaseUrl, { max: 1, onnotice: () => {} });
  const captured: Array<{ query: string; params: unknown[] }> = [];
  const db = drizzle(client, { schema, logger: { logQuery: (query, params) => void captured.push({ query, params }) } }) as unknown as Db;
  const out: ExplainSummary[] = [];
  try {
    for (const c of cases) {
      captured.length = 0;
      const page = await listEmails({ db }, org.principal, { limit: 10, ...c.input });
      const statement = captured[0]!;
      const run = async () => {
        const [row] = await client.unsafe(`explain (analyze, buffers, format json) ${statement.query}`, statement.params as never[]);
        return (row as unknown as { 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number; 'Planning Time': number }> })['QUERY PLAN'][0]!;
      };
      await run(); // warm the cache: the load runs warm too
      const result = await run();
      const text = await client.unsafe(`explain (analyze, buffers, costs off, timing off) ${statement.query}`, statement.params as never[]);
      out.push({
        filter: c.filter,
        value: c.value,
        rows: page.data.length,
        executionMs: result['Execution Time'],
        planningMs: result['Planning Time'],
        nodes: describePlan(result.Plan),
        sharedHit: result.Plan['Shared Hit Blocks'] ?? 0,
        sharedRead: result.Plan['Shared Read Blocks'] ?? 0,
        seqScan: hasSeqScan(result.Plan),
        plan: text.map((line) => (line as Record<string, string>)['QUERY PLAN']).join('\n'),
      });
    }
  } finally {
    await client.end({ timeout: 2 });
  }
  return out;
}

interface ListPartResult {
  seedSeconds: number;
  tableMb: number;
  indexesMb: number;
  rowsPerOrg: Array<{ org: number; rows: number }>;
  explains: ExplainSummary[];
  loads: LoadFigure[];
  workload: Record<string, string[]>;
}

async function listPart(world: World): Promise<ListPartResult> {
  await world.sql`truncate emails cascade`;
  log(`list: seeding ${settings.listRows} emails with SQL (generate_series) over 4 organizations`);
  const started = Date.now();
  await world.sql.begin(async (tx) => {
    await tx.unsafe(`set local maintenance_work_mem = '256MB'`);
    await tx.unsafe(`set local synchronous_commit = off`);
    await tx.unsafe(listSeedSql(world.orgs, settings.listRows));
    await tx.unsafe(LIST_RECIPIENTS_SEED_SQL);
  });
  log(`list: inserted in ${((Date.now() - started) / 1000).toFixed(1)} s; vacuum analyze`);
  await world.sql.unsafe('vacuum (analyze) emails');
  const seedSeconds = (Date.now() - started) / 1000;
  const [size] = await world.sql<Array<{ table_mb: number; indexes_mb: number }>>`
    select round(pg_table_size('emails') / 1048576.0)::int as table_mb, round(pg_indexes_size('emails') / 1048576.0)::int as indexes_mb`;
  const perOrg = await world.sql<Array<{ organization_id: string; n: string }>>`select organization_id, count(*)::text as n from emails group by 1 order by 2 desc`;
  const rowsPerOrg = perOrg.map((row) => ({ org: world.orgs.find((o) => o.organizationId === row.organization_id)!.index, rows: Number(row.n) }));
  log(`list: ${settings.listRows} rows, table ${size!.table_mb} MB + indexes ${size!.indexes_mb} MB, ready in ${seedSeconds.toFixed(1)} s`);

  // What the load asks for, per filter: frequent, middling, rare and absent values alike.
  const workload: Record<string, string[]> = {
    status: ['delivered', 'sent', 'bounced', 'failed', 'suppressed', 'queued', 'scheduled', 'canceled', 'complained', 'sending'],
    to: ['customer0@mail0.example.org', 'customer1@mail1.example.org', 'customer30@mail0.example.org', 'customer500@mail0.example.org', 'customer20000@mail0.example.org', 'customer150001@mail1.example.org', 'nobody@mail0.example.org'],
    tag: ['type:receipt', 'type:reset', 'campaign', 'campaign:c1', 'campaign:c300', 'campaign:c999', 'campaign:none'],
    from: ['orders', 'billing', 'support', 'news', 'alerts', 'nobody'].map((local) => `${local}@{domain}`),
  };
  const big = world.orgs[0]!;
  const owners = world.orgs.slice(0, LIST_SHAPE.orgShares.length);
  // Every value the load asks for, for every organization: the slowest one is the one to fix.
  log(`list: EXPLAIN (ANALYZE, BUFFERS) of the service's own SQL for every value of the workload and each of the ${owners.length} organizations`);
  const explains: ExplainSummary[] = [];
  for (const org of owners) {
    const cases = Object.entries(workload).flatMap(([filter, values]) =>
      values.map((template) => {
        const value = template.replace('{domain}', org.domain);
        return { filter, value, input: filter === 'tag' ? { tag: [value] } : { [filter]: value } };
      }),
    );
    for (const summary of await explainFilters(world, org, [...cases, { filter: 'none', value: '(no filter)', input: {} }])) explains.push({ ...summary, org: org.index });
  }
  const requestsFor = (filter: string): LoadRequest[] =>
    owners.flatMap((org) =>
      workload[filter]!.map((value) => ({
        method: 'GET' as const,
        path: `/api/emails?limit=10&${filter}=${encodeURIComponent(value.replace('{domain}', org.domain))}`,
        key: org.apiKey,
      })),
    );
  const loads: LoadFigure[] = [];
  for (const spec of SEND_TARGETS) {
    log(`${spec.id}: starting for the list filters`);
    const { child, port } = await startServer({ id: spec.id, script: spec.script, env: world.serviceEnv, profile: settings.profile });
    try {
      const check = await fetch(`http://127.0.0.1:${port}/api/emails?limit=10&status=bounced`, { headers: { authorization: `Bearer ${big.apiKey}` }, signal: AbortSignal.timeout(30_000) });
      const body = (await check.json()) as { data?: Array<{ status: string }> };
      if (check.status !== 200 || body.data?.length !== 10 || body.data.some((row) => row.status !== 'bounced')) {
        throw new Error(`${spec.id}: GET /api/emails?status=bounced answered ${check.status}: ${JSON.stringify(body).slice(0, 300)}`);
      }
      for (const filter of Object.keys(workload)) {
        loads.push(
          await measureLoad(world, { id: spec.id, child, port }, `list ${filter}=`, requestsFor(filter), {
            connections: settings.listConnections,
            warmupSeconds: settings.listWarmupSeconds,
            durationSeconds: settings.listDurationSeconds,
            itemsPerRequest: 1,
          }),
        );
      }
    } finally {
      await stopChild(child);
    }
  }
  return { seedSeconds, tableMb: size!.table_mb, indexesMb: size!.indexes_mb, rowsPerOrg, explains, loads, workload };
}

/* ------------------------------------------------------------------ output -------------------- */

/** One row per load run; per email for sends (with emails/s), per request for list pages (filter first). */
function printLoadTable(figures: LoadFigure[], per: 'email' | 'req'): void {
  const perEmail = per === 'email';
  printTable(
    [perEmail ? 'measure' : 'filter', 'target', 'req/s', ...(perEmail ? ['emails/s'] : []), 'p50 ms', 'p99 ms', 'non-2xx', 'errors', `server CPU ms/${per}`, `pg CPU ms/${per}`, 'other procs (cores)'],
    figures.map((f) => [
      f.measure,
      f.target,
      f.requestsPerSecond.toFixed(0),
      ...(perEmail ? [f.itemsPerSecond.toFixed(0)] : []),
      String(f.latencyP50Ms),
      String(f.latencyP99Ms),
      String(f.non2xx),
      String(f.errors),
      fixed(f.serverCpuMsPerItem, 3),
      fixed(f.postgresCpuMsPerItem, 3),
      fixed(f.otherCores, 2),
    ]),
  );
}

function printStatements(figures: LoadFigure[]): void {
  for (const f of figures) {
    if (!f.statements?.length) continue;
    console.log(`\npg_stat_statements, ${f.target} ${f.measure} (per email; execution time, not CPU):`);
    printTable(
      ['µs exec/email', 'µs plan/email', 'calls/email', 'µs/call', 'rows/call', 'hit/call', 'WAL B/email', 'statement'],
      f.statements.map((st) => [
        st.execUsPerItem.toFixed(1),
        st.planUsPerItem.toFixed(1),
        st.callsPerItem.toFixed(3),
        st.meanExecUs.toFixed(0),
        st.rowsPerCall.toFixed(1),
        st.sharedHitPerCall.toFixed(1),
        st.walBytesPerItem.toFixed(0),
        st.query.slice(0, 160),
      ]),
    );
  }
}

function printSending(figures: LoadFigure[]): void {
  printLoadTable(figures, 'email');
  printStatements(figures);
  for (const [measure, target] of [
    ['single', TARGETS.send],
    ['batch', TARGETS.batch],
  ] as const) {
    const rest = figures.find((f) => f.target === 'rest' && f.measure === measure);
    const bare = figures.find((f) => f.target === 'bare' && f.measure === measure);
    if (!rest) continue;
    console.log(
      `${measure}: the service accepts ${rest.itemsPerSecond.toFixed(0)} emails/s (${rest.itemsPerSecond >= target ? 'meets' : 'BELOW'} the target of ${target}/s)` +
        (bare ? `; bare ${bare.itemsPerSecond.toFixed(0)}/s, service = ${((rest.itemsPerSecond / bare.itemsPerSecond) * 100).toFixed(1)} % of bare` : ''),
    );
  }
}

function printDelivery(figures: DeliveryFigure[]): void {
  printTable(
    ['variant', 'messages', 's', 'messages/s', 'sender CPU ms/msg', 'pg CPU ms/msg', 'sink+DNS CPU ms/msg', 'connections', 'DNS queries', 'DKIM', 'other procs (cores)'],
    figures.map((f) => [
      f.variant,
      String(f.messages),
      f.seconds.toFixed(1),
      f.messagesPerSecond.toFixed(0),
      fixed(f.workerCpuMsPerMessage, 3),
      fixed(f.postgresCpuMsPerMessage, 3),
      fixed(f.peerCpuMsPerMessage, 3),
      String(f.sinkConnections),
      String(f.dnsQueries),
      f.dkim,
      fixed(f.otherCores, 2),
    ]),
  );
  for (const f of figures.filter((f) => f.variant.startsWith('service'))) {
    console.log(`${f.variant}: ${f.messagesPerSecond.toFixed(0)} delivered/s (${f.messagesPerSecond >= TARGETS.deliver ? 'meets' : 'BELOW'} the target of ${TARGETS.deliver}/s); ${f.note ?? ''}`);
  }
}

function printList(result: ListPartResult): void {
  const rows = result.rowsPerOrg.map((r) => `organization ${r.org}: ${r.rows}`).join(', ');
  console.log(`\n${settings.listRows} emails (${rows}); table ${result.tableMb} MB, indexes ${result.indexesMb} MB; seeded in ${result.seedSeconds.toFixed(0)} s`);
  console.log('EXPLAIN (ANALYZE, BUFFERS) of GET /api/emails?<filter>=<value>&limit=10 as the service sends it; per value, the slowest of the organizations:');
  const worst = new Map<string, ExplainSummary>();
  for (const e of result.explains) {
    const key = `${e.filter} ${e.value.replace(/@sender\d+\.example\.com$/, '@<own domain>')}`;
    if (!worst.has(key) || worst.get(key)!.executionMs < e.executionMs) worst.set(key, e);
  }
  printTable(
    ['filter', 'value', 'org', 'rows', 'exec ms', 'plan ms', 'buffers hit/read', 'plan'],
    [...worst.values()].map((e) => [e.filter, e.value, String(e.org ?? 0), String(e.rows), e.executionMs.toFixed(2), e.planningMs.toFixed(2), `${e.sharedHit}/${e.sharedRead}`, e.nodes]),
  );
  const slow = result.explains.filter((e) => e.seqScan || e.executionMs > TARGETS.listMs);
  for (const e of slow) console.log(`SLOW: organization ${e.org} ${e.filter}=${e.value}: ${e.executionMs.toFixed(1)} ms${e.seqScan ? ' (sequential scan)' : ''}: ${e.nodes}`);
  if (slow.length === 0) console.log(`no filter needs a sequential scan or more than ${TARGETS.listMs} ms`);
  printLoadTable(result.loads, 'req');
}

/* ------------------------------------------------------------------ main ---------------------- */

export async function runEmailsSuite(): Promise<void> {
  const started = Date.now();
  noteLoadAverage();
  const world = await setUp();
  const report: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: machineInfo(),
    settings: { ...settings, targets: TARGETS },
  };

  if (settings.compareDir && (settings.parts.includes('send') || settings.parts.includes('batch'))) {
    const rounds = await comparePart(world, settings.parts);
    printComparison(rounds);
    report.comparison = { other: settings.compareDir, rounds };
  } else if (settings.parts.includes('send') || settings.parts.includes('batch')) {
    const figures = await sendingParts(world, settings.parts);
    printSending(figures);
    report.sending = figures;
  }
  if (settings.parts.includes('deliver')) {
    const figures = await deliveryPart(world);
    printDelivery(figures);
    report.delivery = figures;
  }
  if (settings.parts.includes('list')) {
    const result = await listPart(world);
    printList(result);
    report.list = result;
  }
  const busiest = Math.max(
    0,
    ...[...((report.sending as LoadFigure[] | undefined) ?? []), ...((report.list as ListPartResult | undefined)?.loads ?? [])].map((f) => f.otherCores ?? 0),
    ...((report.delivery as DeliveryFigure[] | undefined) ?? []).map((f) => f.otherCores ?? 0),
  );
  if (busiest > 0.2) {
    console.log(
      `WARNING: other processes used up to ${busiest.toFixed(2)} of ${os.cpus().length} cores during a measured run; ` +
        'rates are then low and not comparable between targets (CPU ms per email holds up better). Re-run on a quiet machine.',
    );
  }
  report.wallSeconds = Math.round((Date.now() - started) / 100) / 10;
  writeResult('emails-latest.json', report);
  log(`wrote bench/results/emails-latest.json (${report.wallSeconds} s)`);
}
