/**
 * `BENCH_SUITE=contacts npm run bench`: contacts at a million, each figure next to a bare
 * postgres-js floor measured in the same run. Three parts (BENCH_CONTACTS_PARTS, default
 * import,search,export):
 *
 *   import   BENCH_CONTACTS (1,000,000) contacts through POST /api/audiences/{id}/contacts/batch,
 *            1,000 per request, a few requests in flight. First a probe: BENCH_CONTACTS_PROBE
 *            (100,000) contacts at each of BENCH_CONTACTS_PROBE_LEVELS (1,2,3,4) requests in
 *            flight, into audiences that are emptied again; the whole import then runs at the
 *            fastest level (or BENCH_CONTACTS_CONCURRENCY). The floor: postgres-js storing what
 *            the service stores for the same rows, a contact and its membership of the audience,
 *            in one statement per 1,000 rows (a multi-row INSERT ... ON CONFLICT (organization_id,
 *            email) DO NOTHING into `contacts_bare`, and the memberships of the contacts it
 *            inserted into `memberships_bare`), as many in flight; `contacts_bare` is LIKE contacts
 *            INCLUDING ALL (the same columns, defaults and indexes, the pg_trgm GIN one too) and
 *            `memberships_bare` LIKE audience_memberships INCLUDING ALL, with the same foreign keys.
 *   job      BENCH_CONTACTS contacts as one CSV file through POST /api/contacts/imports (Resend's
 *            multipart form, into a segment), then the background import run to its end by
 *            sweepContactImports in a worker of its own (bench/import-worker.ts), in a second
 *            organization; timed from the upload's first byte to the import's completion. The
 *            floor: the bare INSERT above, one statement in flight (an import stores one batch of
 *            1,000 at a time).
 *   search   at 1M contacts, GET /api/audiences/{id}/contacts?search=<term>&limit=50 for a few
 *            terms, BENCH_SEARCH_REQUESTS (50) one after the other each, median/p95; next to the
 *            very SQL the service sends (captured from listContacts: the audience's memberships
 *            joined to their contacts) run through postgres-js, and its EXPLAIN ANALYZE.
 *   export   BENCH_SUPPRESSIONS (1,000,000) suppressions seeded with SQL, then
 *            GET /api/suppressions/export read to the end by the client, on a freshly started
 *            service: time, bytes, and the server process's RSS (VmRSS sampled every 20 ms, and
 *            VmHWM after resetting it through /proc/<pid>/clear_refs) before, at peak, and the
 *            delta; next to bench/bare-export-server.ts (node:http + a postgres-js cursor writing
 *            the same CSV to the socket). Both files must be byte for byte the same.
 *
 * The service is bench/rest-server.ts (createRuntime(config, { runner: false }) behind
 * createRequestListener), one organization on the `2m` plan (1,000,000 contacts: the import fills
 * it exactly) with its rate limit raised by setRateLimit. Requests come from this process over a
 * keep-alive loopback agent; its CPU is counted as "client". Results: tables on stdout and
 * bench/results/contacts-latest.json.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import * as schema from '../db/schema';
import { migrate, openDatabase, type Db } from '../db/client';
import { systemClock } from '../server/clock';
import { newId } from '../server/ids';
import { listContacts } from '../server/services/contacts/read';
import { OPERATOR } from '../server/services/audit/record';
import { createOrganizationWithKey, setRateLimit } from '../server/services/organizations/organizations';
import { planOf } from '../server/services/plans/plans';
import type { Principal } from '../server/services/shared/principal';
import {
  cpuWindow,
  createDatabase,
  fixed,
  forkWorker,
  int,
  log,
  machineInfo,
  noteLoadAverage,
  onCleanup,
  printTable,
  startServer,
  stopChild,
  writeResult,
  type CpuUsage,
} from './harness';

const PARTS = ['import', 'search', 'export', 'job'] as const;
type Part = (typeof PARTS)[number];

const BATCH = 1_000;
const PLAN = '2m';

const levels = (name: string, fallback: string) =>
  (process.env[name] || fallback).split(',').map((s) => {
    const value = Number(s.trim());
    if (!Number.isInteger(value) || value < 1 || value > 32) throw new Error(`${name}: "${s}" is not a whole number of requests in flight (1-32)`);
    return value;
  });

const settings = {
  contacts: int('BENCH_CONTACTS', 1_000_000, BATCH),
  probeContacts: int('BENCH_CONTACTS_PROBE', 100_000, 0),
  probeLevels: levels('BENCH_CONTACTS_PROBE_LEVELS', '1,2,3,4'),
  /** Requests in flight for the whole import; unset: the probe's fastest level. */
  concurrency: process.env.BENCH_CONTACTS_CONCURRENCY ? levels('BENCH_CONTACTS_CONCURRENCY', '2')[0]! : null,
  searchRequests: int('BENCH_SEARCH_REQUESTS', 50),
  suppressions: int('BENCH_SUPPRESSIONS', 1_000_000, 1_000),
  poolSize: 10,
  rateLimit: 1_000_000,
  profile: process.env.BENCH_PROFILE === '1',
  parts: (() => {
    const wanted = (process.env.BENCH_CONTACTS_PARTS || PARTS.join(',')).split(',').map((s) => s.trim()).filter(Boolean);
    for (const part of wanted) if (!(PARTS as readonly string[]).includes(part)) throw new Error(`BENCH_CONTACTS_PARTS: unknown part "${part}" (use ${PARTS.join(', ')})`);
    return PARTS.filter((part) => wanted.includes(part));
  })(),
};

/** The issue's target: 1,000,000 contacts imported in under 2 minutes on two cores. */
const TARGET = { contacts: 1_000_000, seconds: 120 };

export const contactsDeadlineMs = () => {
  const has = (part: Part) => settings.parts.includes(part);
  // Generous: at 1,000 contacts/s (a tenth of the target) every step still ends before it.
  return (
    120_000 +
    (has('import') ? (settings.probeContacts * settings.probeLevels.length + 2 * settings.contacts) : 0) +
    (has('search') ? 120_000 : 0) +
    (has('export') ? 180_000 + settings.suppressions * 0.4 : 0) +
    (has('job') ? 120_000 + 3 * settings.contacts : 0)
  );
};

/* ------------------------------------------------------------------ the rows ------------------ */

const FIRST = ['anna', 'lukas', 'marie', 'jonas', 'sophie', 'leon', 'emma', 'paul', 'mia', 'felix', 'lea', 'noah', 'hannah', 'elias', 'lina', 'ben',
  'clara', 'julian', 'laura', 'max', 'sarah', 'david', 'julia', 'tim', 'lisa', 'jan', 'nina', 'tom', 'eva', 'simon', 'camille', 'louis', 'chloe',
  'hugo', 'ines', 'lucas', 'manon', 'arthur', 'giulia', 'marco', 'chiara', 'luca', 'sofia', 'matteo', 'lucia', 'pablo', 'carmen', 'javier',
  'ana', 'pedro', 'joao', 'beatriz', 'piotr', 'zofia', 'jakub', 'eliska', 'mikael', 'ingrid', 'lars', 'freya', 'sean', 'aoife', 'dimitris', 'eleni'];
const LAST = ['mueller', 'schmidt', 'schneider', 'fischer', 'weber', 'meyer', 'wagner', 'becker', 'schulz', 'hoffmann', 'koch', 'richter', 'klein',
  'wolf', 'neumann', 'schwarz', 'braun', 'zimmermann', 'hartmann', 'krueger', 'martin', 'bernard', 'dubois', 'thomas', 'robert', 'richard',
  'petit', 'durand', 'leroy', 'moreau', 'rossi', 'russo', 'ferrari', 'esposito', 'bianchi', 'romano', 'garcia', 'fernandez', 'lopez', 'martinez',
  'sanchez', 'perez', 'silva', 'santos', 'ferreira', 'nowak', 'kowalski', 'wisniewski', 'novak', 'svoboda', 'nielsen', 'jensen', 'hansen',
  'johansson', 'andersson', 'murphy', 'kelly', 'obrien', 'papadopoulos', 'janssen', 'devries', 'peeters', 'gruber', 'huber'];
/** [domain, weight]: about a fifth of the addresses contain "example". */
const DOMAINS: Array<[string, number]> = [
  ['gmail.com', 24], ['web.de', 9], ['gmx.de', 9], ['outlook.com', 7], ['t-online.de', 5], ['orange.fr', 5], ['yahoo.fr', 4], ['libero.it', 3],
  ['icloud.com', 3], ['proton.me', 2], ['wp.pl', 2], ['seznam.cz', 2], ['example.com', 8], ['example.org', 6], ['example.net', 4], ['mail.example.eu', 2],
  ['acme-gmbh.de', 1], ['muster-ag.at', 1], ['boulangerie-dupont.fr', 1], ['studio-verdi.it', 1], ['hoek-bv.nl', 1],
];
const DOMAIN_TABLE = DOMAINS.flatMap(([domain, weight]) => Array.from({ length: weight }, () => domain));
/** One contact in RARE_EVERY has this first name: the rare search term. */
const RARE_NAME = 'ottilie';
const RARE_EVERY = 20_000;

/** A 32-bit mix of the index, so neighbouring rows differ in every choice. */
function mix(i: number, salt: number): number {
  let h = Math.imul(i ^ salt, 0x9e3779b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca77);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae3d);
  return (h ^ (h >>> 16)) >>> 0;
}

export interface ContactRow {
  email: string;
  name?: string;
  subscribed?: boolean;
}

const capital = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/** Contact number i: lowercase and unique (the number is in the address), the same in every run. */
export function contactRow(i: number): ContactRow {
  const first = mix(i, 11) % RARE_EVERY === 0 ? RARE_NAME : FIRST[mix(i, 1) % FIRST.length]!;
  const last = LAST[mix(i, 2) % LAST.length]!;
  const domain = DOMAIN_TABLE[mix(i, 3) % DOMAIN_TABLE.length]!;
  const shape = mix(i, 4) % 4;
  const local = shape === 0 ? `${first}.${last}${i}` : shape === 1 ? `${first}${i}` : shape === 2 ? `${first[0]}.${last}.${i}` : `${first}_${last}_${i}`;
  const row: ContactRow = { email: `${local}@${domain}` };
  const extras = mix(i, 5) % 100;
  if (extras < 80) row.name = `${capital(first)} ${capital(last)}`;
  if (extras >= 95) row.subscribed = false;
  return row;
}

const rowsFrom = (start: number, count: number) => Array.from({ length: count }, (_, k) => contactRow(start + k));

/* ------------------------------------------------------------------ HTTP client --------------- */

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

interface Answer {
  status: number;
  text: string;
}

function request(port: number, method: 'GET' | 'POST', path: string, key: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
        timeout: 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within 60 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function json<T>(port: number, method: 'GET' | 'POST', path: string, key: string, body?: unknown): Promise<T> {
  const answer = await request(port, method, path, key, body === undefined ? undefined : JSON.stringify(body));
  if (answer.status < 200 || answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
  return JSON.parse(answer.text) as T;
}

/** Streams a download to its end: bytes, records (CRLF), sha256, time to the last byte. */
function download(port: number, path: string, key: string | null): Promise<{ status: number; bytes: number; lines: number; sha256: string; ms: number; firstByteMs: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'GET', path, agent, headers: key ? { authorization: `Bearer ${key}` } : {} }, (res) => {
      const hash = createHash('sha256');
      let bytes = 0;
      let lines = 0;
      let firstByteMs = -1;
      res.on('data', (chunk: Buffer) => {
        if (firstByteMs < 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
        hash.update(chunk);
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, lines, sha256: hash.digest('hex'), ms: performance.now() - started, firstByteMs }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const quantile = (values: number[], q: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
};

/* ------------------------------------------------------------------ the world ----------------- */

interface World {
  databaseUrl: string;
  sql: postgres.Sql;
  organizationId: string;
  apiKey: string;
  /** A second organization, for the import job: its contacts do not count against the first's plan. */
  jobOrganization: { organizationId: string; apiKey: string };
  serviceEnv: Record<string, string>;
}

async function setUp(): Promise<World> {
  const { url: databaseUrl } = await createDatabase();
  const database = await openDatabase({ url: databaseUrl, poolSize: 2 });
  try {
    await migrate(database);
    const deps = { db: database.db, clock: systemClock };
    const { organizationId, apiKey } = await createOrganizationWithKey(deps, { name: 'Contacts bench', ownerEmail: 'owner@bench.example', plan: PLAN });
    await setRateLimit(deps, organizationId, settings.rateLimit, OPERATOR);
    const jobOrganization = await createOrganizationWithKey(deps, { name: 'Contacts bench: import job', ownerEmail: 'jobs@bench.example', plan: PLAN });
    const sql = postgres(databaseUrl, { max: 8, onnotice: () => {} });
    onCleanup(() => sql.end({ timeout: 2 }));
    log(`organization on the ${PLAN} plan (${planOf(PLAN).contacts.toLocaleString('en')} contacts), rate limit ${settings.rateLimit.toLocaleString('en')} per 10 s`);
    return { databaseUrl, sql, organizationId, apiKey, jobOrganization, serviceEnv: { DATABASE_URL: databaseUrl, BENCH_POOL_SIZE: String(settings.poolSize) } };
  } finally {
    await database.close();
  }
}

/** What earlier work left Postgres to do (dead tuples, dirty buffers) is not billed to the next measure. */
async function settle(world: World): Promise<void> {
  await world.sql`vacuum (analyze) contacts, audience_memberships, audiences, events, organizations`;
  await world.sql`checkpoint`;
}

interface Service {
  child: { pid?: number };
  port: number;
  stop: () => Promise<void>;
}

async function startService(world: World, id = 'rest'): Promise<Service> {
  const { child, port } = await startServer({ id, script: 'rest-server.ts', env: world.serviceEnv, profile: settings.profile });
  return { child, port, stop: () => stopChild(child) };
}

/* ------------------------------------------------------------------ import -------------------- */

interface ImportFigure {
  target: 'service' | 'bare';
  measure: string;
  contacts: number;
  concurrency: number;
  seconds: number;
  contactsPerSecond: number;
  batchP50Ms: number;
  batchP95Ms: number;
  batchMaxMs: number;
  serverCpuMsPer1k: number | null;
  postgresCpuMsPer1k: number | null;
  clientCpuMsPer1k: number | null;
  otherCores: number | null;
  loadAverage: number;
}

function figureOf(target: ImportFigure['target'], measure: string, contacts: number, concurrency: number, ms: number, latencies: number[], usage: CpuUsage, clientMs: number): ImportFigure {
  const per1k = (value: number | null | undefined) => (value == null ? null : (value / contacts) * 1000);
  return {
    target,
    measure,
    contacts,
    concurrency,
    seconds: ms / 1000,
    contactsPerSecond: contacts / (ms / 1000),
    batchP50Ms: quantile(latencies, 0.5),
    batchP95Ms: quantile(latencies, 0.95),
    batchMaxMs: Math.max(...latencies),
    serverCpuMsPer1k: per1k(usage.processes.server),
    postgresCpuMsPer1k: per1k(usage.postgresMs),
    clientCpuMsPer1k: per1k(clientMs),
    otherCores: usage.otherCores,
    loadAverage: os.loadavg()[0]!,
  };
}

/** Contacts [from, from + count) into the audience through the endpoint, `concurrency` requests in flight. */
async function importThroughService(service: Service, world: World, audienceId: string, from: number, count: number, concurrency: number, measure: string): Promise<ImportFigure> {
  const path = `/api/audiences/${audienceId}/contacts/batch`;
  const end = from + count;
  let next = from;
  const latencies: number[] = [];
  let lastLog = Date.now();
  let done = 0;
  const window = cpuWindow({ server: service.child.pid });
  const self = process.cpuUsage();
  const started = performance.now();
  const worker = async () => {
    for (;;) {
      const start = next;
      if (start >= end) return;
      next = Math.min(end, start + BATCH);
      const rows = rowsFrom(start, next - start);
      const at = performance.now();
      const answer = await request(service.port, 'POST', path, world.apiKey, JSON.stringify({ contacts: rows }));
      latencies.push(performance.now() - at);
      if (answer.status !== 200) throw new Error(`${measure}: POST ${path} (rows ${start}..) answered ${answer.status}: ${answer.text.slice(0, 500)}`);
      const outcome = JSON.parse(answer.text) as { created: number; updated: number; unchanged: number; errors: unknown[] };
      if (outcome.created !== rows.length || outcome.errors.length > 0) throw new Error(`${measure}: rows ${start}..: ${answer.text.slice(0, 500)}`);
      done += rows.length;
      if (Date.now() - lastLog > 15_000) {
        lastLog = Date.now();
        log(`${measure}: ${done.toLocaleString('en')} contacts, ${(done / ((performance.now() - started) / 1000)).toFixed(0)}/s so far`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ms = performance.now() - started;
  const used = process.cpuUsage(self);
  const usage = window.end();
  const figure = figureOf('service', measure, count, concurrency, ms, latencies, usage, (used.user + used.system) / 1000);
  log(`${measure}: ${count.toLocaleString('en')} contacts in ${figure.seconds.toFixed(1)} s = ${figure.contactsPerSecond.toFixed(0)}/s (batch p50 ${figure.batchP50Ms.toFixed(0)} ms)`);
  return figure;
}

/**
 * The floor: the same rows, as a contact each and its membership of the audience, one statement per
 * 1,000 (the contacts' multi-row INSERT ... ON CONFLICT DO NOTHING, and the memberships of those it
 * inserted), as many in flight.
 */
async function importBare(world: World, audienceId: string, from: number, count: number, concurrency: number): Promise<ImportFigure> {
  const client = postgres(world.databaseUrl, { max: concurrency, onnotice: () => {} });
  try {
    await client`select 1`;
    const end = from + count;
    let next = from;
    const latencies: number[] = [];
    const window = cpuWindow({});
    const self = process.cpuUsage();
    const started = performance.now();
    const worker = async () => {
      for (;;) {
        const start = next;
        if (start >= end) return;
        next = Math.min(end, start + BATCH);
        const now = new Date();
        const input = rowsFrom(start, next - start);
        const rows = input.map((row) => ({
          id: newId(),
          organization_id: world.organizationId,
          email: row.email,
          name: row.name ?? null,
          created_at: now,
          updated_at: now,
        }));
        const memberships = rows.map(() => newId());
        const subscribed = input.map((row) => row.subscribed ?? true);
        const at = performance.now();
        const result = await client`with stored as (
            insert into contacts_bare ${client(rows, 'id', 'organization_id', 'email', 'name', 'created_at', 'updated_at')}
            on conflict (organization_id, email) do nothing returning id
          )
          insert into memberships_bare (id, audience_id, contact_id, organization_id, subscribed, created_at, updated_at)
          select m.id, ${audienceId}::uuid, m.contact_id, ${world.organizationId}::uuid, m.subscribed, ${now}::timestamptz, ${now}::timestamptz
          from unnest(${client.array(memberships)}::uuid[], ${client.array(rows.map((row) => row.id))}::uuid[], ${client.array(subscribed)}::boolean[]) as m(id, contact_id, subscribed)
          where m.contact_id in (select id from stored)`;
        latencies.push(performance.now() - at);
        if (result.count !== rows.length) throw new Error(`bare import: ${result.count} of ${rows.length} memberships inserted at ${start}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const ms = performance.now() - started;
    const used = process.cpuUsage(self);
    const usage = window.end();
    const figure = figureOf('bare', 'bare INSERT', count, concurrency, ms, latencies, usage, (used.user + used.system) / 1000);
    log(`bare import: ${count.toLocaleString('en')} contacts in ${figure.seconds.toFixed(1)} s = ${figure.contactsPerSecond.toFixed(0)}/s`);
    return figure;
  } finally {
    await client.end({ timeout: 2 });
  }
}

interface ImportPartResult {
  probes: ImportFigure[];
  chosenConcurrency: number;
  service: ImportFigure;
  bare: ImportFigure;
  tableMb: number;
  indexesMb: number;
  membershipsMb: number;
  membershipIndexesMb: number;
  eventsMb: number;
  audienceId: string;
}

async function importPart(world: World, service: Service): Promise<ImportPartResult> {
  const createAudience = (name: string) => json<{ id: string }>(service.port, 'POST', '/api/audiences', world.apiKey, { name });
  const probes: ImportFigure[] = [];
  if (settings.probeContacts > 0 && settings.concurrency === null) {
    // Each level into an audience of its own, on rows no other level uses; all emptied afterwards.
    const probeAudiences: string[] = [];
    for (const [n, level] of settings.probeLevels.entries()) {
      const audience = await createAudience(`Probe ${level} in flight`);
      probeAudiences.push(audience.id);
      await world.sql`checkpoint`;
      probes.push(await importThroughService(service, world, audience.id, 10_000_000 * (n + 1), settings.probeContacts, level, `probe ${level} in flight`));
    }
    // Nothing but the probes has written contacts (with their memberships, truncated by the cascade) or
    // events yet. The organization's count goes back to 0 with them: the plan's cap reads it, and
    // would refuse the main import otherwise.
    await world.sql`truncate contacts, events cascade`;
    await world.sql`update organizations set contact_count = 0 where id = ${world.organizationId}`;
    await world.sql`delete from audiences where id in ${world.sql(probeAudiences)}`;
  }
  const concurrency = settings.concurrency ?? (probes.length > 0 ? probes.reduce((best, f) => (f.contactsPerSecond > best.contactsPerSecond ? f : best)).concurrency : 2);
  if (probes.length > 0) log(`probe: fastest at ${concurrency} requests in flight`);

  // The floor first, into its own copies of the tables, then dropped: the service's import then finds
  // the machine as the floor did (caches, WAL, no other table of a million rows to keep warm).
  await world.sql.unsafe(`create table contacts_bare (like contacts including all)`);
  await world.sql.unsafe(`alter table contacts_bare add foreign key (organization_id) references organizations (id) on delete cascade`);
  await world.sql.unsafe(`create table memberships_bare (like audience_memberships including all)`);
  await world.sql.unsafe(`alter table memberships_bare add foreign key (audience_id) references audiences (id) on delete cascade`);
  await world.sql.unsafe(`alter table memberships_bare add foreign key (contact_id) references contacts_bare (id) on delete cascade`);
  const bareAudience = await createAudience('Bare floor');
  await settle(world);
  const bare = await importBare(world, bareAudience.id, 0, settings.contacts, concurrency);
  await world.sql.unsafe('drop table memberships_bare, contacts_bare');
  await world.sql`delete from audiences where id = ${bareAudience.id}`;

  const audience = await createAudience('Newsletter');
  await settle(world);
  const figure = await importThroughService(service, world, audience.id, 0, settings.contacts, concurrency, 'import');

  const [counts] = await world.sql<Array<{ members: number; contacts: number; counted: number; countedContacts: number; events: number }>>`
    select (select count(*)::int from audience_memberships where audience_id = ${audience.id}) as members,
      (select count(*)::int from contacts where organization_id = ${world.organizationId}) as contacts,
      (select contact_count from audiences where id = ${audience.id}) as counted,
      (select contact_count from organizations where id = ${world.organizationId}) as "countedContacts",
      (select count(*)::int from events where type = 'contact.created') as events`;
  if (Object.values(counts!).some((n) => n !== settings.contacts)) {
    throw new Error(`after the import: ${JSON.stringify(counts)}, expected ${settings.contacts} of each`);
  }
  log(`checked: ${settings.contacts.toLocaleString('en')} contacts stored, each a member of the audience, counted on the audience and the organization, and as many contact.created events`);
  await settle(world);
  const [size] = await world.sql<Array<{ table_mb: number; indexes_mb: number; memberships_mb: number; membership_indexes_mb: number; events_mb: number }>>`
    select round(pg_table_size('contacts') / 1048576.0)::int as table_mb, round(pg_indexes_size('contacts') / 1048576.0)::int as indexes_mb,
      round(pg_table_size('audience_memberships') / 1048576.0)::int as memberships_mb,
      round(pg_indexes_size('audience_memberships') / 1048576.0)::int as membership_indexes_mb,
      round(pg_total_relation_size('events') / 1048576.0)::int as events_mb`;
  return {
    probes,
    chosenConcurrency: concurrency,
    service: figure,
    bare,
    tableMb: size!.table_mb,
    indexesMb: size!.indexes_mb,
    membershipsMb: size!.memberships_mb,
    membershipIndexesMb: size!.membership_indexes_mb,
    eventsMb: size!.events_mb,
    audienceId: audience.id,
  };
}

/* ------------------------------------------------------------------ search -------------------- */

interface SearchFigure {
  term: string;
  what: string;
  matches: number;
  page: number;
  serviceP50Ms: number;
  serviceP95Ms: number;
  bareP50Ms: number;
  bareP95Ms: number;
  explainMs: number;
  plan: string;
  otherCores: number | null;
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

function describePlan(node: PlanNode): string {
  const removed = (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0);
  const self = `${node['Node Type']}${node['Index Name'] ? ` ${node['Index Name']}` : node['Relation Name'] ? ` ${node['Relation Name']}` : ''}${removed ? ` (${removed} removed)` : ''}`;
  const children = (node.Plans ?? []).map(describePlan);
  return children.length === 0 ? self : `${self} <- ${children.length === 1 ? children[0] : `[${children.join(' + ')}]`}`;
}

/** As listContacts takes a search: `%`, `_` and `\` literally (an address may have underscores). */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const SEARCH_TERMS: Array<{ term: () => string; what: string }> = [
  { term: () => RARE_NAME, what: `rare (1 contact in ${RARE_EVERY.toLocaleString('en')})` },
  { term: () => contactRow(Math.floor(settings.contacts * 0.37)).email, what: 'one whole address' },
  { term: () => 'example', what: 'common (a fifth)' },
  { term: () => 'an', what: '2 letters, common' },
  { term: () => 'qz', what: '2 letters, in no address' },
];

async function searchPart(world: World, service: Service, audienceId: string): Promise<SearchFigure[]> {
  const client = postgres(world.databaseUrl, { max: 1, onnotice: () => {} });
  const captured: Array<{ query: string; params: unknown[] }> = [];
  const db = drizzle(client, { schema, logger: { logQuery: (query, params) => void captured.push({ query, params }) } }) as unknown as Db;
  const principal = { organizationId: world.organizationId } as Principal;
  const figures: SearchFigure[] = [];
  try {
    for (const spec of SEARCH_TERMS) {
      const term = spec.term();
      // The statement the service sends for this search (after ownAudience's lookup).
      captured.length = 0;
      const page = await listContacts({ db }, principal, audienceId, { limit: 50, search: term });
      const statement = captured.find((c) => /\blike\b/i.test(c.query));
      if (!statement) throw new Error(`no LIKE statement captured for "${term}"`);
      const [count] = await client<Array<{ n: number }>>`select count(*)::int as n from audience_memberships m join contacts c on c.id = m.contact_id
        where m.audience_id = ${audienceId} and c.email like ${`%${literal(term)}%`}`;
      const path = `/api/audiences/${audienceId}/contacts?search=${encodeURIComponent(term)}&limit=50`;

      const window = cpuWindow({ server: service.child.pid });
      const service_: number[] = [];
      for (let i = 0; i < 3 + settings.searchRequests; i++) {
        const at = performance.now();
        const answer = await request(service.port, 'GET', path, world.apiKey);
        const ms = performance.now() - at;
        if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
        const body = JSON.parse(answer.text) as { data: Array<{ email: string }> };
        if (body.data.length !== page.data.length || body.data.some((row) => !row.email.includes(term))) throw new Error(`GET ${path}: ${body.data.length} rows, expected ${page.data.length}`);
        if (i >= 3) service_.push(ms);
      }
      const bare: number[] = [];
      for (let i = 0; i < 3 + settings.searchRequests; i++) {
        const at = performance.now();
        const rows = await client.unsafe(statement.query, statement.params as never[], { prepare: true });
        const ms = performance.now() - at;
        if (rows.length !== Math.min(51, count!.n)) throw new Error(`bare search "${term}": ${rows.length} rows`);
        if (i >= 3) bare.push(ms);
      }
      const usage = window.end();
      const [explained] = await client.unsafe(`explain (analyze, format json) ${statement.query}`, statement.params as never[]);
      const result = (explained as unknown as { 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }> })['QUERY PLAN'][0]!;
      const figure: SearchFigure = {
        term,
        what: spec.what,
        matches: count!.n,
        page: page.data.length,
        serviceP50Ms: quantile(service_, 0.5),
        serviceP95Ms: quantile(service_, 0.95),
        bareP50Ms: quantile(bare, 0.5),
        bareP95Ms: quantile(bare, 0.95),
        explainMs: result['Execution Time'],
        plan: describePlan(result.Plan),
        otherCores: usage.otherCores,
      };
      log(`search "${term}": ${figure.matches} matches; service p50 ${figure.serviceP50Ms.toFixed(1)} ms, bare SQL p50 ${figure.bareP50Ms.toFixed(1)} ms; ${figure.plan}`);
      figures.push(figure);
    }
  } finally {
    await client.end({ timeout: 2 });
  }
  return figures;
}

/* ------------------------------------------------------------------ export -------------------- */

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** Resets the process's peak RSS (VmHWM) to its current RSS (Linux 4.0+); false when not allowed. */
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

interface ExportFigure {
  target: 'service' | 'bare';
  rows: number;
  bytes: number;
  seconds: number;
  firstByteMs: number;
  rowsPerSecond: number;
  rssBeforeMb: number | null;
  rssPeakMb: number | null;
  /** VmHWM after the export, the peak having been reset just before it: catches spikes between samples. */
  hwmMb: number | null;
  rssDeltaMb: number | null;
  rssAfterMb: number | null;
  serverCpuMs: number | null;
  postgresCpuMs: number;
  otherCores: number | null;
  sha256: string;
  loadAverage: number;
}

const SUPPRESSION_DOMAINS = ['gmail.com', 'web.de', 'gmx.de', 'outlook.com', 'orange.fr', 'libero.it', 'example.com', 'example.org', 'wp.pl', 'seznam.cz'];

/** N suppressions of the organization, newest last by id (UUIDv7 from created_at), like years of bounces and opt-outs. */
function suppressionSeedSql(organizationId: string, rows: number): string {
  const spanMs = 2 * 365 * 24 * 3_600_000;
  const first = `array[${FIRST.map((f) => `'${f}'`).join(',')}]`;
  const last = `array[${LAST.map((l) => `'${l}'`).join(',')}]`;
  const domains = `array[${SUPPRESSION_DOMAINS.map((d) => `'${d}'`).join(',')}]`;
  return `
  insert into suppressions (id, organization_id, email, reason, email_id, created_at)
  select (lpad(to_hex(ms), 12, '0') || '7' || lpad(to_hex((i::bigint * 7919) % 4096), 3, '0') || '8' || lpad(to_hex(i), 15, '0'))::uuid,
    '${organizationId}'::uuid,
    (${first})[1 + (i * 31) % ${FIRST.length}] || '.' || (${last})[1 + (i * 17) % ${LAST.length}] || i || '@' || (${domains})[1 + (i * 7) % ${SUPPRESSION_DOMAINS.length}],
    case when r < 0.55 then 'bounce' when r < 0.60 then 'complaint' when r < 0.92 then 'unsubscribe' else 'manual' end,
    null, to_timestamp(ms / 1000.0)
  from (
    select i, (extract(epoch from now()) * 1000)::bigint - ${spanMs}::bigint + (i::bigint * ${spanMs}) / ${rows} as ms, random() as r
    from generate_series(1, ${rows}) i
  ) s`;
}

async function measureExport(
  target: ExportFigure['target'],
  pid: number,
  run: () => ReturnType<typeof download>,
  rows: number,
): Promise<ExportFigure> {
  const peakReset = resetPeak(pid);
  const before = statusKb(pid, 'VmRSS');
  let peak = before ?? 0;
  const sampler = setInterval(() => {
    const now = statusKb(pid, 'VmRSS');
    if (now !== null && now > peak) peak = now;
  }, 20);
  const window = cpuWindow({ server: pid });
  let result: Awaited<ReturnType<typeof download>>;
  try {
    result = await run();
  } finally {
    clearInterval(sampler);
  }
  const usage = window.end();
  const hwm = peakReset ? statusKb(pid, 'VmHWM') : null;
  const after = statusKb(pid, 'VmRSS');
  if (result.status !== 200) throw new Error(`${target} export answered ${result.status}`);
  if (result.lines !== rows + 1) throw new Error(`${target} export: ${result.lines} lines, expected ${rows} rows + the header`);
  const mb = (kb: number | null) => (kb === null ? null : kb / 1024);
  const top = Math.max(peak, hwm ?? 0);
  const figure: ExportFigure = {
    target,
    rows,
    bytes: result.bytes,
    seconds: result.ms / 1000,
    firstByteMs: result.firstByteMs,
    rowsPerSecond: rows / (result.ms / 1000),
    rssBeforeMb: mb(before),
    rssPeakMb: mb(peak),
    hwmMb: mb(hwm),
    rssDeltaMb: before === null ? null : (top - before) / 1024,
    rssAfterMb: mb(after),
    serverCpuMs: usage.processes.server ?? null,
    postgresCpuMs: usage.postgresMs,
    otherCores: usage.otherCores,
    sha256: result.sha256,
    loadAverage: os.loadavg()[0]!,
  };
  log(
    `${target} export: ${rows.toLocaleString('en')} rows, ${(result.bytes / 1048576).toFixed(1)} MB in ${figure.seconds.toFixed(2)} s; ` +
      `RSS ${fixed(figure.rssBeforeMb, 0)} MB before, peak ${fixed(Math.max(figure.rssPeakMb ?? 0, figure.hwmMb ?? 0), 0)} MB`,
  );
  return figure;
}

interface ExportPartResult {
  seedSeconds: number;
  tableMb: number;
  service: ExportFigure;
  bare: ExportFigure;
  identical: boolean;
}

async function exportPart(world: World): Promise<ExportPartResult> {
  log(`export: seeding ${settings.suppressions.toLocaleString('en')} suppressions with SQL`);
  const started = Date.now();
  await world.sql.begin(async (tx) => {
    await tx.unsafe(`set local maintenance_work_mem = '256MB'`);
    await tx.unsafe('set local synchronous_commit = off');
    // Built once after the rows, rather than row by row: the same index, in a fraction of the time.
    await tx.unsafe('drop index suppressions_email_trgm_idx');
    await tx.unsafe(suppressionSeedSql(world.organizationId, settings.suppressions));
    await tx.unsafe('create index suppressions_email_trgm_idx on suppressions using gin (email gin_trgm_ops)');
  });
  await world.sql`vacuum (analyze) suppressions`;
  await world.sql`checkpoint`;
  const seedSeconds = (Date.now() - started) / 1000;
  const [size] = await world.sql<Array<{ mb: number }>>`select round(pg_total_relation_size('suppressions') / 1048576.0)::int as mb`;
  log(`export: seeded in ${seedSeconds.toFixed(1)} s (${size!.mb} MB with indexes)`);

  // A second, small organization: its export warms each server's code paths without touching the big list.
  const database = await openDatabase({ url: world.databaseUrl, poolSize: 1 });
  let small: { organizationId: string; apiKey: string };
  try {
    small = await createOrganizationWithKey({ db: database.db, clock: systemClock }, { name: 'Warm-up', ownerEmail: 'warm@bench.example', plan: PLAN });
  } finally {
    await database.close();
  }
  await world.sql.unsafe(suppressionSeedSql(small.organizationId, 10_000));

  // Each server freshly started, so nothing the import or search left in its heap counts here.
  const service = await startService(world, 'rest-export');
  let serviceFigure: ExportFigure;
  try {
    for (let i = 0; i < 3; i++) {
      const warm = await download(service.port, '/api/suppressions/export', small.apiKey);
      if (warm.status !== 200 || warm.lines !== 10_001) throw new Error(`warm-up export: ${warm.status}, ${warm.lines} lines`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    serviceFigure = await measureExport('service', service.child.pid!, () => download(service.port, '/api/suppressions/export', world.apiKey), settings.suppressions);
  } finally {
    await service.stop();
  }
  const { child, port } = await startServer({ id: 'bare-export', script: 'bare-export-server.ts', env: world.serviceEnv });
  let bareFigure: ExportFigure;
  try {
    for (let i = 0; i < 3; i++) await download(port, `/export?organization=${small.organizationId}`, null);
    await new Promise((resolve) => setTimeout(resolve, 500));
    bareFigure = await measureExport('bare', child.pid!, () => download(port, `/export?organization=${world.organizationId}`, null), settings.suppressions);
  } finally {
    await stopChild(child);
  }
  const identical = serviceFigure.sha256 === bareFigure.sha256 && serviceFigure.bytes === bareFigure.bytes;
  if (!identical) log(`WARNING: the service's and the bare CSV differ (${serviceFigure.bytes} vs ${bareFigure.bytes} bytes)`);
  else log('checked: the service and the bare floor sent the same file, byte for byte');
  return { seedSeconds, tableMb: size!.mb, service: serviceFigure, bare: bareFigure, identical };
}

/* ------------------------------------------------------------------ output -------------------- */

/* ------------------------------------------------------------------ import job ---------------- */

interface JobPartResult {
  contacts: number;
  fileBytes: number;
  uploadSeconds: number;
  runSeconds: number;
  sweeps: number;
  seconds: number;
  contactsPerSecond: number;
  workerCpuMsPer1k: number | null;
  serverCpuMsPer1k: number | null;
  postgresCpuMsPer1k: number | null;
  otherCores: number | null;
  loadAverage: number;
  bare: ImportFigure;
}

/** The CSV of contacts [0, count): email, name, and whether each is subscribed in the segment. */
function contactsCsv(count: number): string {
  const lines = ['email,name,subscribed'];
  for (let i = 0; i < count; i++) {
    const row = contactRow(i);
    lines.push(`${row.email},${row.name ?? ''},${row.subscribed === false ? 'no' : 'yes'}`);
  }
  return `${lines.join('\n')}\n`;
}

async function jobPart(world: World, service: Service): Promise<JobPartResult> {
  const org = world.jobOrganization;
  const csv = contactsCsv(settings.contacts);
  log(`import job: a file of ${settings.contacts.toLocaleString('en')} contacts, ${(Buffer.byteLength(csv) / 1024 / 1024).toFixed(1)} MB`);

  // The floor first, in its own tables, then dropped (as the import part does).
  await world.sql.unsafe(`create table if not exists contacts_bare (like contacts including all)`);
  await world.sql.unsafe(`alter table contacts_bare add foreign key (organization_id) references organizations (id) on delete cascade`);
  await world.sql.unsafe(`create table if not exists memberships_bare (like audience_memberships including all)`);
  await world.sql.unsafe(`alter table memberships_bare add foreign key (audience_id) references audiences (id) on delete cascade`);
  await world.sql.unsafe(`alter table memberships_bare add foreign key (contact_id) references contacts_bare (id) on delete cascade`);
  const bareAudience = await json<{ id: string }>(service.port, 'POST', '/api/audiences', world.apiKey, { name: 'Bare floor (job)' });
  await settle(world);
  const bare = await importBare(world, bareAudience.id, 0, settings.contacts, 1);
  await world.sql.unsafe('drop table memberships_bare, contacts_bare');
  await world.sql`delete from audiences where id = ${bareAudience.id}`;

  const segment = await json<{ id: string }>(service.port, 'POST', '/api/segments', org.apiKey, { name: 'Imported' });
  const worker = forkWorker('import-job', 'import-worker.ts', world.serviceEnv, { profile: settings.profile });
  try {
    await worker.receive<{ ready: true }>(60_000);
    await settle(world);
    const window = cpuWindow({ worker: worker.child.pid, server: service.child.pid });
    const started = performance.now();
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
    form.append('column_map', JSON.stringify({ email: 'email', name: 'name', subscription: { column: 'subscribed', lists: 'subscribed' } }));
    form.append('segments', JSON.stringify([segment.id]));
    const upload = await fetch(`http://127.0.0.1:${service.port}/api/contacts/imports`, { method: 'POST', headers: { authorization: `Bearer ${org.apiKey}` }, body: form });
    const answer = (await upload.json()) as { id: string; status: string };
    if (upload.status !== 202) throw new Error(`import job: POST /api/contacts/imports answered ${upload.status}: ${JSON.stringify(answer).slice(0, 500)}`);
    const uploadMs = performance.now() - started;
    log(`import job: uploaded in ${(uploadMs / 1000).toFixed(1)} s; running it`);
    const run = await worker.ask<{ sweeps: number; ms: number }>({ op: 'run' }, 3 * settings.contacts + 120_000);
    const ms = performance.now() - started;
    const usage = window.end();
    const result = await json<{ status: string; counts: { total: number; created: number; failed: number } }>(service.port, 'GET', `/api/contacts/imports/${answer.id}`, org.apiKey);
    const [counted] = await world.sql<Array<{ members: number; unsubscribed: number }>>`
      select count(*)::int as members, (count(*) filter (where not subscribed))::int as unsubscribed from audience_memberships where audience_id = ${segment.id}`;
    const expectedOut = Array.from({ length: settings.contacts }, (_, i) => contactRow(i)).filter((row) => row.subscribed === false).length;
    if (result.status !== 'completed' || result.counts.created !== settings.contacts || result.counts.failed !== 0 || counted!.members !== settings.contacts || counted!.unsubscribed !== expectedOut) {
      throw new Error(`import job: ${JSON.stringify(result)}, ${JSON.stringify(counted)} (expected ${settings.contacts} members, ${expectedOut} unsubscribed)`);
    }
    const per1k = (value: number | null | undefined) => (value == null ? null : (value / settings.contacts) * 1000);
    const figure: JobPartResult = {
      contacts: settings.contacts,
      fileBytes: Buffer.byteLength(csv),
      uploadSeconds: uploadMs / 1000,
      runSeconds: run.ms / 1000,
      sweeps: run.sweeps,
      seconds: ms / 1000,
      contactsPerSecond: settings.contacts / (ms / 1000),
      workerCpuMsPer1k: per1k(usage.processes.worker),
      serverCpuMsPer1k: per1k(usage.processes.server),
      postgresCpuMsPer1k: per1k(usage.postgresMs),
      otherCores: usage.otherCores,
      loadAverage: os.loadavg()[0]!,
      bare,
    };
    log(`import job: ${settings.contacts.toLocaleString('en')} contacts in ${figure.seconds.toFixed(1)} s = ${figure.contactsPerSecond.toFixed(0)}/s (${run.sweeps} sweeps)`);
    return figure;
  } finally {
    await worker.stop();
  }
}

function printJob(result: JobPartResult): void {
  printTable(
    ['measure', 'contacts', 'upload s', 'run s', 's', 'contacts/s', 'worker CPU ms/1k', 'server CPU ms/1k', 'pg CPU ms/1k', 'other procs (cores)', 'load avg'],
    [
      ['bare INSERT, 1 in flight', result.bare.contacts.toLocaleString('en'), '', '', result.bare.seconds.toFixed(1), result.bare.contactsPerSecond.toFixed(0), '', '', fixed(result.bare.postgresCpuMsPer1k, 0), fixed(result.bare.otherCores, 2), result.bare.loadAverage.toFixed(2)],
      [
        'import job (upload + background run)',
        result.contacts.toLocaleString('en'),
        result.uploadSeconds.toFixed(1),
        result.runSeconds.toFixed(1),
        result.seconds.toFixed(1),
        result.contactsPerSecond.toFixed(0),
        fixed(result.workerCpuMsPer1k, 0),
        fixed(result.serverCpuMsPer1k, 0),
        fixed(result.postgresCpuMsPer1k, 0),
        fixed(result.otherCores, 2),
        result.loadAverage.toFixed(2),
      ],
    ],
  );
  console.log(verdict({ part: 'import job', how: 'from one file', name: 'job', figure: result, bare: result.bare }));
}

/** The summary line of a part: its rate against the target (and what 1M would take) and against bare. */
function verdict(line: { part: string; how: string; name: string; rateNote?: string; figure: { contacts: number; seconds: number; contactsPerSecond: number }; bare: { contactsPerSecond: number } }): string {
  const { contacts, seconds, contactsPerSecond } = line.figure;
  const projected = (TARGET.contacts / contactsPerSecond).toFixed(0);
  return (
    `${line.part}: ${contacts.toLocaleString('en')} contacts ${line.how} in ${seconds.toFixed(1)} s = ${contactsPerSecond.toFixed(0)}/s${line.rateNote ?? ''} ` +
    `(${contactsPerSecond * TARGET.seconds >= TARGET.contacts ? 'meets' : 'BELOW'} the target of ${TARGET.contacts.toLocaleString('en')} in ${TARGET.seconds} s` +
    `${contacts !== TARGET.contacts ? `; 1M would take ${projected} s` : ''}); bare ${line.bare.contactsPerSecond.toFixed(0)}/s, ` +
    `${line.name} = ${((contactsPerSecond / line.bare.contactsPerSecond) * 100).toFixed(0)} % of bare`
  );
}

function printImport(result: ImportPartResult): void {
  const rows = [...result.probes, result.bare, result.service];
  printTable(
    ['measure', 'in flight', 'contacts', 's', 'contacts/s', 'batch p50 ms', 'batch p95 ms', 'server CPU ms/1k', 'pg CPU ms/1k', 'client CPU ms/1k', 'other procs (cores)', 'load avg'],
    rows.map((f) => [
      f.measure,
      String(f.concurrency),
      f.contacts.toLocaleString('en'),
      f.seconds.toFixed(1),
      f.contactsPerSecond.toFixed(0),
      f.batchP50Ms.toFixed(0),
      f.batchP95Ms.toFixed(0),
      fixed(f.serverCpuMsPer1k, 0),
      fixed(f.postgresCpuMsPer1k, 0),
      fixed(f.clientCpuMsPer1k, 0),
      fixed(f.otherCores, 2),
      f.loadAverage.toFixed(2),
    ]),
  );
  const s = result.service;
  console.log(verdict({ part: 'import', how: 'through the endpoint', name: 'service', figure: s, bare: result.bare, rateNote: ` at ${s.concurrency} in flight` }));
  console.log(
    `contacts table ${result.tableMb} MB + indexes ${result.indexesMb} MB; audience_memberships ${result.membershipsMb} MB + indexes ${result.membershipIndexesMb} MB; ` +
      `events ${result.eventsMb} MB with indexes`,
  );
}

function printSearch(figures: SearchFigure[]): void {
  printTable(
    ['search', 'term', 'matches', 'page', 'service p50 ms', 'service p95 ms', 'bare SQL p50 ms', 'bare SQL p95 ms', 'EXPLAIN ms', 'other procs (cores)', 'plan'],
    figures.map((f) => [
      f.what,
      f.term.length > 32 ? `${f.term.slice(0, 29)}...` : f.term,
      f.matches.toLocaleString('en'),
      String(f.page),
      f.serviceP50Ms.toFixed(1),
      f.serviceP95Ms.toFixed(1),
      f.bareP50Ms.toFixed(1),
      f.bareP95Ms.toFixed(1),
      f.explainMs.toFixed(1),
      fixed(f.otherCores, 2),
      f.plan,
    ]),
  );
}

function printExport(result: ExportPartResult): void {
  const mb = (value: number | null) => fixed(value, 0);
  printTable(
    ['export', 'rows', 'MB', 's', 'rows/s', 'first byte ms', 'RSS before MB', 'RSS peak MB (sampled/HWM)', 'RSS delta MB', 'server CPU s', 'pg CPU s', 'other procs (cores)', 'load avg'],
    [result.service, result.bare].map((f) => [
      f.target,
      f.rows.toLocaleString('en'),
      (f.bytes / 1048576).toFixed(1),
      f.seconds.toFixed(2),
      f.rowsPerSecond.toFixed(0),
      f.firstByteMs.toFixed(0),
      mb(f.rssBeforeMb),
      `${mb(f.rssPeakMb)} / ${mb(f.hwmMb)}`,
      mb(f.rssDeltaMb),
      fixed(f.serverCpuMs === null ? null : f.serverCpuMs / 1000, 1),
      fixed(f.postgresCpuMs / 1000, 1),
      fixed(f.otherCores, 2),
      f.loadAverage.toFixed(2),
    ]),
  );
  console.log(`suppressions seeded in ${result.seedSeconds.toFixed(0)} s (${result.tableMb} MB with indexes); the two files ${result.identical ? 'are identical' : 'DIFFER'}`);
}

/* ------------------------------------------------------------------ main ---------------------- */

export async function runContactsSuite(): Promise<void> {
  const started = Date.now();
  noteLoadAverage();
  if (settings.parts.includes('search') && !settings.parts.includes('import')) throw new Error('BENCH_CONTACTS_PARTS: search needs import (it searches the imported contacts)');
  if (settings.contacts > planOf(PLAN).contacts) throw new Error(`BENCH_CONTACTS: the ${PLAN} plan stores at most ${planOf(PLAN).contacts} contacts`);
  const world = await setUp();
  const report: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: machineInfo(),
    settings: { ...settings, batch: BATCH, plan: PLAN, target: TARGET },
  };

  if (settings.parts.includes('import')) {
    const service = await startService(world);
    try {
      const result = await importPart(world, service);
      report.import = result;
      printImport(result);
      if (settings.parts.includes('search')) {
        const figures = await searchPart(world, service, result.audienceId);
        report.search = figures;
        printSearch(figures);
      }
    } finally {
      await service.stop();
    }
  }
  if (settings.parts.includes('job')) {
    const service = await startService(world, 'rest-job');
    try {
      const result = await jobPart(world, service);
      report.job = result;
      printJob(result);
    } finally {
      await service.stop();
    }
  }
  if (settings.parts.includes('export')) {
    const result = await exportPart(world);
    report.export = result;
    printExport(result);
  }
  report.loadAverageAtEnd = os.loadavg()[0];
  report.wallSeconds = Math.round((Date.now() - started) / 100) / 10;
  writeResult('contacts-latest.json', report);
  log(`wrote bench/results/contacts-latest.json (${report.wallSeconds} s)`);
}
