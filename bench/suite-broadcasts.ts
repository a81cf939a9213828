/**
 * `BENCH_SUITE=broadcasts npm run bench`: a broadcast to a whole audience (issue 14, point 10), on
 * Postgres, everything on 127.0.0.1, each figure next to a bare floor measured in the same run.
 *
 *   hand-off  one settled, reviewed organization on the `2m` plan with a verified domain (DKIM
 *             published on the loopback DNS), an audience of BENCH_BROADCAST_CONTACTS contacts,
 *             each a subscribed member (contacts and memberships seeded with SQL, UUIDv7 ids in
 *             insertion order), a broadcast with a ~2 kB personalised HTML created and sent with
 *             the service's createBroadcast and sendBroadcast; then the service's own sweepBroadcasts in child processes
 *             (bench/fanout-worker.ts: one, as the embedded runner; then two side by side, each
 *             run on a broadcast of its own) until the broadcast is `sent`. Wall time from the
 *             send to the last chunk stored, emails/s, CPU per email. Checked: one email per
 *             member, every member once, the broadcast's counts. The floor (bench/bare-fanout.ts):
 *             node + postgres-js reading the same members (memberships joined to their contacts)
 *             500 at a time and writing the same rows (personalised by string replace) with one
 *             multi-row INSERT per chunk.
 *   delivery  the queued broadcast emails delivered by the service's sweepEmailDispatch
 *             (bench/dispatch-worker.ts) through the relay and straight to the MX into the
 *             loopback SMTP sink, time-boxed (BENCH_BROADCAST_DELIVER_SECONDS); every delivered
 *             email checked at the sink (once each), a received message's DKIM verified with
 *             mailauth, List-Unsubscribe among its signed headers. The floor: bench/bare-smtp.ts,
 *             nodemailer pooled + TCP_NODELAY, DKIM-signed, as many messages to the same sink.
 *
 * Results: tables on stdout and bench/results/broadcasts-latest.json. Knobs: see `settings`
 * and docs/benchmarks.md ("Broadcasts suite").
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { authenticate } from 'mailauth';
import postgres from 'postgres';
import { loadConfig } from '../server/config';
import { newId } from '../server/ids';
import { createRuntime, stopRuntime, type Runtime } from '../server/runtime';
import { createResolver } from '../server/net/dns';
import { admitApiKey } from '../server/services/api-keys/admission';
import { createAudience } from '../server/services/audiences/crud';
import { createBroadcast } from '../server/services/broadcasts/crud';
import { sendBroadcast } from '../server/services/broadcasts/send';
import { CHUNK_CONTACTS } from '../server/services/broadcasts/chunk';
import { registerDomain } from '../server/services/domains/crud';
import { signingKeyOf } from '../server/services/domains/signing';
import { OPERATOR } from '../server/services/audit/record';
import { createOrganizationWithKey, setReviewed } from '../server/services/organizations/organizations';
import type { Principal } from '../server/services/shared/principal';
import type { BareFanOutJob, BareFanOutRun } from './bare-fanout';
import type { BareSmtpJob, BareSmtpRun } from './bare-smtp';
import type { DispatchRun } from './dispatch-worker';
import type { FanOutRun } from './fanout-worker';
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
  postgresCpuMs,
  printTable,
  writeResult,
  type Worker,
} from './harness';
import type { IdTally, PeerStats, Sample } from './loopback-peer';

const list = (name: string, fallback: string, allowed?: readonly string[]) =>
  (process.env[name] ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '' && s !== 'none')
    .map((s) => {
      if (allowed && !allowed.includes(s)) throw new Error(`${name}: unknown value "${s}" (use ${allowed.join(', ')} or none)`);
      return s;
    });

export const settings = {
  /** Subscribed contacts of the audience. Each fan-out variant sends its own broadcast to all of them, within one day's ceiling (1,000,000 on `2m`). */
  contacts: int('BENCH_BROADCAST_CONTACTS', 100_000, 1),
  /** Fan-out variants: how many worker processes run sweepBroadcasts side by side, each variant on a broadcast of its own. */
  fanOutProcesses: list('BENCH_BROADCAST_FANOUT', '1,2').map((s) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 1 || n > 8) throw new Error(`BENCH_BROADCAST_FANOUT: "${s}" is not a number of processes (1-8)`);
    return n;
  }),
  /** Delivery variants, in order: the pooled relay, straight to the MX. */
  deliverPaths: list('BENCH_BROADCAST_DELIVER', 'relay,mx', ['relay', 'mx']) as Array<'relay' | 'mx'>,
  /** A delivery run starts no sweep after this and is rated over what it delivered. */
  deliverSeconds: int('BENCH_BROADCAST_DELIVER_SECONDS', 60),
  /** Sweep loops of the dispatch worker (the embedded runner has 1). */
  deliverLoops: int('BENCH_BROADCAST_DELIVER_LOOPS', 1),
  /** The bare floors (hand-off and delivery); 0 skips them. */
  bare: int('BENCH_BROADCAST_BARE', 1, 0) === 1,
  profile: process.env.BENCH_PROFILE === '1',
  /** Sample the fan-out workers' Postgres backends (pg_stat_activity every 5 ms): where a chunk's wall time goes. */
  activity: process.env.BENCH_BROADCAST_ACTIVITY === '1',
};
const MAX_CONTACTS = 1_000_000;
if (settings.contacts * Math.max(1, settings.fanOutProcesses.length) > MAX_CONTACTS) {
  throw new Error(`BENCH_BROADCAST_CONTACTS x fan-out variants must stay within the 2m plan's daily ceiling of ${MAX_CONTACTS} recipients`);
}

const TARGETS = { handOffSeconds: 120, handOffContacts: 100_000, deliverPerSecond: 1_000 };

/** A fan-out run gives up (time-boxed, reported as such) after this. */
const fanOutLimitMs = () => 120_000 + settings.contacts * 5;

export const broadcastsDeadlineMs = () =>
  180_000 +
  settings.contacts * 1 + // seeding
  (settings.bare ? 60_000 + settings.contacts * 3 : 0) +
  settings.fanOutProcesses.length * (60_000 + fanOutLimitMs()) +
  settings.deliverPaths.length * (150_000 + settings.deliverSeconds * 1000) +
  (settings.bare && settings.deliverPaths.length > 0 ? 120_000 + settings.deliverSeconds * 4_000 : 0);

/* ------------------------------------------------------------------ the world ----------------- */

const RECIPIENT_DOMAIN = 'rcpt.example.net';
const RECIPIENT_MX = 'mx.rcpt.example.net';
const MAIL_HOST = 'mx.eumail.bench';
/** https, so the messages carry List-Unsubscribe-Post (RFC 8058); nothing ever connects to it. */
const APP_URL = 'https://app.eumail.bench';
const SENDER_DOMAIN = 'news.shop.example.com';
export const FROM = `Shop Example <news@${SENDER_DOMAIN}>`;
export const SUBJECT = 'Our November news: new teas, a mug that keeps it warm, and 10 % off';

/** ~2 kB of newsletter HTML, personalised with the three values every contact has. */
export const BROADCAST_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>November news</title></head>
<body style="margin:0;padding:0;background:#f4f4f4;font-family:Helvetica,Arial,sans-serif;color:#222">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="600" cellpadding="24" cellspacing="0" style="background:#ffffff">
<tr><td><h1 style="font-size:22px;margin:0 0 12px">Hello {{ name }},</h1>
<p style="font-size:15px;line-height:1.5">November is here, and so are three new teas from our partner farm in
Darjeeling: a first flush, a smoky lapsang and a mild green for the afternoon. Each comes in a 100 g tin
that fits the shelf above your kettle.</p>
<p style="font-size:15px;line-height:1.5">Our <a href="https://shop.example.com/mugs/thermo?utm_source=newsletter&amp;utm_campaign=november">double-walled mug</a>
keeps your tea warm for an hour, and this month it is 10 % off with the code <strong>NOVEMBER10</strong>.</p>
<table role="presentation" width="100%" cellpadding="8" cellspacing="0" style="border-collapse:collapse;font-size:14px">
<tr style="background:#fafafa"><td>First flush Darjeeling, 100 g</td><td align="right">EUR 12.50</td></tr>
<tr><td>Lapsang souchong, 100 g</td><td align="right">EUR 9.90</td></tr>
<tr style="background:#fafafa"><td>Sencha, 100 g</td><td align="right">EUR 8.40</td></tr></table>
<p style="text-align:center;margin:24px 0"><a href="https://shop.example.com/november?utm_source=newsletter&amp;utm_campaign=november"
style="background:#2b6cb0;color:#ffffff;padding:12px 20px;border-radius:4px;text-decoration:none">See everything new</a></p>
<p style="font-size:12px;color:#777;line-height:1.4">You receive this email because {{ email }} subscribed to news from
Shop Example GmbH, Musterstrasse 1, 10115 Berlin, Germany. Not interested any more?
<a href="{{ unsubscribe_url }}" style="color:#777">Unsubscribe</a> with one click.</p>
</td></tr></table></td></tr></table></body></html>`;

const FIRST_NAMES = ['Anna', 'Lukas', 'Marie', 'Jonas', 'Sophie', 'Elias', 'Emma', 'Noah', 'Mia', 'Paul', 'Lea', 'Ben', 'Clara', 'Felix', 'Ida', 'Finn'];
const LAST_NAMES = ['Schmidt', 'Müller', 'Weber', 'Fischer', 'Rossi', 'Dubois', 'Kowalski', 'Novak', 'Jensen', 'García', 'Bianchi', 'Meyer', 'Wagner', 'Becker'];

/** Contact n: 80 % with a name; addresses unique, lowercase, all on the loopback recipient domain. */
function contactOf(n: number): { email: string; name: string | null } {
  const first = FIRST_NAMES[n % FIRST_NAMES.length]!;
  const last = LAST_NAMES[Math.floor(n / FIRST_NAMES.length) % LAST_NAMES.length]!;
  return { email: `${first.toLowerCase()}.${n}@${RECIPIENT_DOMAIN}`, name: n % 5 === 4 ? null : `${first} ${last}` };
}

export interface World {
  databaseName: string;
  databaseUrl: string;
  sql: postgres.Sql;
  runtime: Runtime;
  peer: Worker;
  dns: string;
  smtpPort: number;
  serviceEnv: Record<string, string>;
  organizationId: string;
  principal: Principal;
  domainId: string;
  audienceId: string;
  lastContactId: string;
  seedSeconds: number;
}

export async function setUp(): Promise<World> {
  const { name: databaseName, url: databaseUrl } = await createDatabase();
  const peer = forkWorker('peer', 'loopback-peer.ts', {});
  const { dns, smtpPort } = await peer.receive<{ dns: string; smtpPort: number }>(30_000);
  await peer.ask({ op: 'records', mx: [[RECIPIENT_DOMAIN, RECIPIENT_MX]], a: [[RECIPIENT_MX, '127.0.0.1']] });
  log(`loopback DNS on ${dns}, SMTP sink on 127.0.0.1:${smtpPort}`);

  const serviceEnv = {
    DATABASE_URL: databaseUrl,
    DNS_SERVERS: dns,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    MAIL_HOST,
    APP_URL,
  };
  const runtime = await createRuntime(
    loadConfig({ ...serviceEnv, NODE_ENV: 'production', DATA_DIR: dataDir, ROLES: 'web', BETTER_AUTH_SECRET: randomBytes(32).toString('hex') }),
    { runner: false },
  );
  onCleanup(() => stopRuntime(runtime));
  const sql = postgres(databaseUrl, { max: 4, onnotice: () => {} });
  onCleanup(() => sql.end({ timeout: 2 }));
  const deps = runtime.deps;

  // A settled, reviewed account on the top volume: the daily ceiling (1,000,000 recipients) and the review hold stay out of the way.
  const { organizationId, apiKey } = await createOrganizationWithKey(deps, {
    name: 'Broadcast bench',
    ownerEmail: 'owner@bench.example',
    plan: '2m',
    createdAt: new Date(Date.now() - 60 * 86_400_000),
  });
  await setReviewed(deps, organizationId, true, OPERATOR);
  const admission = await admitApiKey(deps, apiKey);
  if (!admission) throw new Error('the seeded key does not authenticate');
  const principal = admission.principal;
  const view = await registerDomain(deps, principal, { name: SENDER_DOMAIN });
  const dkim = view.records.find((record) => record.record === 'DKIM')!;
  // Verified as a DNS check would leave it, without the check (its chain is not measured here).
  await sql`update domains set status = 'verified', verified_at = now(), chain_started_at = null, next_check_at = null, failure_reason = null,
    record_statuses = '{"DKIM":"verified","MX":"verified","SPF":"verified","DMARC":"verified"}'::jsonb`;
  await peer.ask({ op: 'records', txt: [[dkim.name, dkim.parts ?? [dkim.value]]] });
  const audience = await createAudience(deps, principal, { name: 'Newsletter' });

  const { lastContactId, seconds } = await seedContacts(sql, organizationId, audience.id, settings.contacts);
  log(`seeded ${settings.contacts} contacts, each a subscribed member of the audience, in ${seconds.toFixed(1)} s`);
  return {
    databaseName,
    databaseUrl,
    sql,
    runtime,
    peer,
    dns,
    smtpPort,
    serviceEnv,
    organizationId,
    principal,
    domainId: view.id,
    audienceId: audience.id,
    lastContactId,
    seedSeconds: seconds,
  };
}

/**
 * Contacts and their memberships of the audience with SQL, 5,000 of each per statement from unnest
 * arrays; ids from newId() in insertion order (UUIDv7, increasing), so the newest member (the
 * service's lastContactId: the highest contact id among the memberships) is the last one seeded.
 */
async function seedContacts(sql: postgres.Sql, organizationId: string, audienceId: string, count: number): Promise<{ lastContactId: string; seconds: number }> {
  const started = performance.now();
  const batch = 5_000;
  let lastContactId = '';
  // Made a minute ago: "unsubscribed since the start" compares updated_at with the broadcast's start.
  const at = new Date(Date.now() - 60_000);
  for (let first = 0; first < count; first += batch) {
    const n = Math.min(batch, count - first);
    const ids: string[] = [];
    const memberships: string[] = [];
    const emails: string[] = [];
    const names: Array<string | null> = [];
    for (let i = 0; i < n; i++) {
      const contact = contactOf(first + i);
      ids.push(newId());
      emails.push(contact.email);
      names.push(contact.name);
    }
    for (let i = 0; i < n; i++) memberships.push(newId());
    await sql`insert into contacts (id, organization_id, email, name, created_at, updated_at)
      select u.id, ${organizationId}, u.email, u.name, ${at}, ${at}
      from unnest(${sql.array(ids)}::uuid[], ${sql.array(emails)}::text[], ${sql.array(names)}::text[]) as u(id, email, name)`;
    await sql`insert into audience_memberships (id, audience_id, contact_id, organization_id, subscribed, created_at, updated_at)
      select u.id, ${audienceId}, u.contact_id, ${organizationId}, true, ${at}, ${at}
      from unnest(${sql.array(memberships)}::uuid[], ${sql.array(ids)}::uuid[]) as u(id, contact_id)`;
    lastContactId = ids[ids.length - 1]!;
  }
  // The two counts the statements keep: the audience's members, the organization's contacts (the plan's cap).
  await sql`update audiences set contact_count = ${count} where id = ${audienceId}`;
  await sql`update organizations set contact_count = ${count} where id = ${organizationId}`;
  const [check] = await sql<Array<{ n: number; contacts: number; newest: string }>>`
    select count(*)::int as n, (select count(*)::int from contacts where organization_id = ${organizationId}) as contacts,
      (select contact_id::text from audience_memberships where audience_id = ${audienceId} order by contact_id desc limit 1) as newest
    from audience_memberships where audience_id = ${audienceId}`;
  if (check!.n !== count || check!.contacts !== count || check!.newest !== lastContactId) {
    throw new Error(`seeding: ${check!.n} memberships of ${check!.contacts} contacts, newest ${check!.newest}, expected ${count}, ${count} and ${lastContactId}`);
  }
  await sql`vacuum (analyze) contacts, audience_memberships, audiences, organizations`;
  return { lastContactId, seconds: (performance.now() - started) / 1000 };
}

/** Clears what the previous measure left Postgres to do (dead rows, dirty buffers), so it is not billed to the next one. */
export async function settle(world: World): Promise<void> {
  await world.sql`vacuum (analyze) emails, email_events, events, broadcasts, usage_counters, organizations`;
  await world.sql`checkpoint`;
}

/**
 * CPU ms of the Postgres processes that work for this run: the backends (and autovacuum workers)
 * of its database and the server's own processes (WAL writer, checkpointer...), not the backends
 * of other databases, which other people's tests may be using on the same server meanwhile.
 */
function ourPostgresMs(databaseName: string): Map<number, number> {
  const ours = new Map<number, number>();
  for (const [pid, ms] of postgresCpuMs()) {
    let title = '';
    try {
      title = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const clientBackend = /\d+\.\d+\.\d+\.\d+\(\d+\)|\[local\]/.test(title);
    if (title.includes(databaseName) || (!clientBackend && !title.includes('autovacuum worker'))) ours.set(pid, ms);
  }
  return ours;
}

export function ownPostgresWindow(databaseName: string): () => number {
  const before = ourPostgresMs(databaseName);
  return () => {
    let total = 0;
    for (const [pid, ms] of ourPostgresMs(databaseName)) total += ms - (before.get(pid) ?? 0);
    return total;
  };
}

/* ------------------------------------------------------------------ hand-off ------------------ */

interface ActivityShare {
  /** `active: <statement>` (with its wait event, if any), `idle in transaction` (waiting for the worker's next statement), `idle`. */
  what: string;
  share: number;
}

/** What a statement is, for the activity table: its first words, whitespace collapsed, identifiers unquoted. */
const statementOf = (query: string) => query.replace(/\s+/g, ' ').replace(/"/g, '').trim().slice(0, 70);

/**
 * Samples pg_stat_activity every 5 ms over the backends whose application_name matches `pattern`
 * (the fan-out workers' connections), from its own connection, until stopped; answers the share of
 * samples per state and statement. A backend's wall time splits into executing (`active`), waiting
 * for its client inside a transaction (`idle in transaction`: the worker's own work between
 * statements, and the round trips) and outside one.
 */
function sampleActivity(databaseUrl: string, pattern: string): { stop(): Promise<ActivityShare[]> } {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const counts = new Map<string, number>();
  let total = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const rows = await sql<Array<{ app: string; state: string | null; wait: string | null; query: string }>>`
        select application_name as app, state, wait_event_type || ':' || wait_event as wait, query
        from pg_stat_activity where application_name like ${pattern}`;
      // Per worker process, its busiest connection: a transaction runs on one connection at a time, the rest of the pool idles.
      const byWorker = new Map<string, string>();
      const rank = (what: string) => (what.startsWith('active') ? 2 : what === 'idle in transaction' ? 1 : 0);
      for (const row of rows) {
        const what =
          row.state === 'active' ? `active: ${statementOf(row.query)}${row.wait ? ` [${row.wait}]` : ''}` : row.state === 'idle in transaction' ? 'idle in transaction' : 'no statement or transaction open';
        const current = byWorker.get(row.app);
        if (current === undefined || rank(what) > rank(current)) byWorker.set(row.app, what);
      }
      for (const what of byWorker.values()) {
        counts.set(what, (counts.get(what) ?? 0) + 1);
        total++;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await sql.end({ timeout: 2 });
      return [...counts]
        .map(([what, n]) => ({ what, share: n / Math.max(1, total) }))
        .sort((a, b) => b.share - a.share);
    },
  };
}

export interface HandOffFigure {
  variant: string;
  processes: number;
  contacts: number;
  emails: number;
  seconds: number;
  emailsPerSecond: number;
  /** All worker processes together (the floor: its one process). */
  workerCpuMsPerEmail: number | null;
  /** Each worker's share of the workers' CPU, e.g. [0.98, 0.02]. */
  workerShares: number[];
  postgresCpuMsPerEmail: number | null;
  /** Only this database's backends and the server's own processes. */
  ownPostgresCpuMsPerEmail: number | null;
  otherCores: number | null;
  timedOut: boolean;
  checks: string;
  broadcastId?: string;
  /** Per process: sweeps, idle sweeps, runs by outcome. */
  runs?: FanOutRun[];
  /** BENCH_BROADCAST_ACTIVITY=1: what the workers' backends were doing, share of samples. */
  activity?: ActivityShare[];
  note?: string;
}

export async function serviceHandOff(world: World, processes: number, ordinal: number): Promise<HandOffFigure> {
  const deps = world.runtime.deps;
  const broadcast = await createBroadcast(deps, world.principal, {
    audienceId: world.audienceId,
    from: FROM,
    name: `November news (${processes} process${processes > 1 ? 'es' : ''})`,
    subject: SUBJECT,
    html: BROADCAST_HTML,
  });
  const workers = Array.from({ length: processes }, (_, i) =>
    // PGAPPNAME names the worker's connections in pg_stat_activity (postgres-js reads it).
    forkWorker(`fanout-x${processes}-${i}`, 'fanout-worker.ts', { ...world.serviceEnv, PGAPPNAME: `bench-fanout-${i}` }, { profile: settings.profile }),
  );
  try {
    await Promise.all(workers.map((worker) => worker.receive<{ ready: true }>(60_000)));
    await settle(world);
    const variant = `service, ${processes} worker process${processes > 1 ? 'es' : ''}`;
    log(`${variant}: sendBroadcast, then sweepBroadcasts until the broadcast is sent (${settings.contacts} contacts)`);
    const window = cpuWindow(Object.fromEntries(workers.map((worker, i) => [`worker${i}`, worker.child.pid])));
    const ownPostgres = ownPostgresWindow(world.databaseName);
    const sampler = settings.activity ? sampleActivity(world.databaseUrl, 'bench-fanout-%') : null;
    const t0 = Date.now();
    const sending = await sendBroadcast(deps, world.principal, broadcast.id, {});
    if (sending.status !== 'sending') throw new Error(`${variant}: sendBroadcast left the broadcast ${sending.status}`);
    const limitMs = fanOutLimitMs();
    const runs = await Promise.all(workers.map((worker) => worker.ask<FanOutRun>({ op: 'run', broadcastId: broadcast.id, limitMs }, limitMs + 90_000)));
    const usage = window.end();
    const ownPostgresMs = ownPostgres();
    const activity = sampler ? await sampler.stop() : undefined;
    const sentAt = Math.max(...runs.map((run) => run.sentAt ?? 0));
    const timedOut = runs.some((run) => run.timedOut) || sentAt === 0;
    const seconds = ((timedOut ? Date.now() : sentAt) - t0) / 1000;
    const check = await checkBroadcast(world, broadcast.id, timedOut);
    const workerMs = workers.map((_, i) => usage.processes[`worker${i}`] ?? null);
    const workerTotal = workerMs.every((ms) => ms !== null) ? workerMs.reduce<number>((sum, ms) => sum + ms!, 0) : null;
    const per = (ms: number | null) => (ms === null || check.emails === 0 ? null : ms / check.emails);
    const figure: HandOffFigure = {
      variant,
      processes,
      contacts: settings.contacts,
      emails: check.emails,
      seconds,
      emailsPerSecond: check.emails / seconds,
      workerCpuMsPerEmail: per(workerTotal),
      workerShares: workerTotal ? workerMs.map((ms) => (ms ?? 0) / workerTotal) : [],
      postgresCpuMsPerEmail: per(usage.postgresMs),
      ownPostgresCpuMsPerEmail: per(ownPostgresMs),
      otherCores: usage.otherCores,
      timedOut,
      checks: check.summary,
      broadcastId: broadcast.id,
      runs,
      activity,
      note:
        `runs (of up to 5 s each) per process: ${runs.map((run) => Object.values(run.outcomes).reduce((a, b) => a + b, 0)).join(' / ')}; ` +
        `sweeps that found it held by another process: ${runs.map((run) => run.idleSweeps).join(' / ')}; ` +
        `broadcast started ${check.startedToSentSeconds?.toFixed(1) ?? '?'} s before its sent_at` +
        (ordinal > 0 ? `; the emails table already held ${ordinal} earlier broadcast(s)` : ''),
    };
    log(`${variant}: ${check.emails} emails queued in ${seconds.toFixed(1)} s = ${figure.emailsPerSecond.toFixed(0)}/s; ${check.summary}`);
    return figure;
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}

/** One email per contact, every contact once, the counts as kept by the fan-out. Throws when not. */
async function checkBroadcast(world: World, broadcastId: string, timedOut: boolean): Promise<{ emails: number; summary: string; startedToSentSeconds: number | null }> {
  const [row] = await world.sql<Array<{ status: string; recipients: number; queued: number; suppressed: number; skipped: number; span: number | null }>>`
    select status, recipients, queued, suppressed, skipped, extract(epoch from sent_at - started_at)::float8 as span from broadcasts where id = ${broadcastId}`;
  const [emails] = await world.sql<Array<{ n: number; contacts: number; queued: number; history: number; logged: number }>>`
    select count(*)::int as n, count(distinct contact_id)::int as contacts, count(*) filter (where status = 'queued')::int as queued,
      (select count(*)::int from email_events h join emails e on e.id = h.email_id where e.broadcast_id = ${broadcastId} and h.type = 'email.queued') as history,
      (select count(*)::int from events l where l.type = 'email.queued' and (l.data->>'emailId')::uuid in (select id from emails where broadcast_id = ${broadcastId})) as logged
    from emails where broadcast_id = ${broadcastId}`;
  const [strays] = await world.sql<Array<{ missing: number; foreign: number }>>`
    select
      (select count(*)::int from audience_memberships m where m.audience_id = ${world.audienceId}
        and not exists (select 1 from emails e where e.broadcast_id = ${broadcastId} and e.contact_id = m.contact_id)) as missing,
      (select count(*)::int from emails e where e.broadcast_id = ${broadcastId}
        and not exists (select 1 from audience_memberships m where m.contact_id = e.contact_id and m.audience_id = ${world.audienceId})) as foreign`;
  const b = row!;
  const e = emails!;
  const problems: string[] = [];
  if (!timedOut && b.status !== 'sent') problems.push(`status ${b.status}`);
  if (b.recipients !== settings.contacts) problems.push(`counts.recipients ${b.recipients}`);
  if (e.contacts !== e.n) problems.push(`${e.n} emails for ${e.contacts} distinct contacts`);
  if (b.queued !== e.n) problems.push(`counts.queued ${b.queued} for ${e.n} emails`);
  if (e.queued !== e.n) problems.push(`${e.n - e.queued} emails not queued`);
  // `email.queued` is the one history entry not stored (server/services/emails/history.ts: the email row says it); the event log has it.
  if (e.history !== 0 || e.logged !== e.n) problems.push(`${e.history} email.queued history rows (none expected) and ${e.logged} logged events for ${e.n} emails`);
  if (b.suppressed !== 0 || b.skipped !== 0) problems.push(`suppressed ${b.suppressed}, skipped ${b.skipped}`);
  if (strays!.foreign !== 0) problems.push(`${strays!.foreign} emails for contacts outside the audience`);
  if (!timedOut && (e.n !== settings.contacts || strays!.missing !== 0)) problems.push(`${e.n} emails for ${settings.contacts} contacts, ${strays!.missing} contacts without one`);
  if (problems.length > 0) throw new Error(`broadcast ${broadcastId}: ${problems.join('; ')}`);
  return {
    emails: e.n,
    summary: `${e.n} emails = ${e.contacts} distinct contacts${timedOut ? ` (time-boxed: ${strays!.missing} contacts not reached)` : ', every contact once'}, counts.queued ${b.queued}, status ${b.status}`,
    startedToSentSeconds: b.span,
  };
}

export async function bareHandOff(world: World): Promise<HandOffFigure> {
  await world.sql`drop table if exists email_recipients_bare, emails_bare`;
  // The same columns, defaults and indexes as `emails` (the unique one per broadcast and contact, the GINs), and its foreign key.
  await world.sql`create table emails_bare (like emails including all)`;
  await world.sql`alter table emails_bare add foreign key (organization_id) references organizations (id) on delete cascade`;
  await world.sql`create table email_recipients_bare (like email_recipients including all)`;
  await world.sql`alter table email_recipients_bare add foreign key (email_id) references emails_bare (id) on delete cascade`;
  const worker = forkWorker('bare-fanout', 'bare-fanout.ts', { DATABASE_URL: world.databaseUrl });
  try {
    await worker.receive<{ ready: true }>(30_000);
    await settle(world);
    const variant = 'bare postgres-js';
    log(`${variant}: ${settings.contacts} rows, ${CHUNK_CONTACTS} per multi-row INSERT`);
    const job: BareFanOutJob = {
      op: 'run',
      table: 'emails_bare',
      recipientsTable: 'email_recipients_bare',
      organizationId: world.organizationId,
      domainId: world.domainId,
      audienceId: world.audienceId,
      lastContactId: world.lastContactId,
      broadcastId: newId(),
      from: FROM,
      fromAddress: `news@${SENDER_DOMAIN}`,
      replyTo: [],
      subject: SUBJECT,
      html: BROADCAST_HTML,
      appUrl: APP_URL,
      mailHost: MAIL_HOST,
      encryptionKey: world.serviceEnv.ENCRYPTION_KEY!,
      chunk: CHUNK_CONTACTS,
    };
    const window = cpuWindow({ worker: worker.child.pid });
    const ownPostgres = ownPostgresWindow(world.databaseName);
    const run = await worker.ask<BareFanOutRun>(job, 60_000 + settings.contacts * 3);
    const usage = window.end();
    const ownPostgresMs = ownPostgres();
    const [check] = await world.sql<Array<{ n: number; contacts: number }>>`select count(*)::int as n, count(distinct contact_id)::int as contacts from emails_bare`;
    if (check!.n !== settings.contacts || check!.contacts !== settings.contacts || run.rows !== settings.contacts) {
      throw new Error(`${variant}: ${check!.n} rows for ${check!.contacts} distinct contacts (reported ${run.rows}), expected ${settings.contacts}`);
    }
    const per = (ms: number | null | undefined) => (ms == null ? null : ms / run.rows);
    const figure: HandOffFigure = {
      variant,
      processes: 1,
      contacts: settings.contacts,
      emails: run.rows,
      seconds: run.ms / 1000,
      emailsPerSecond: run.rows / (run.ms / 1000),
      workerCpuMsPerEmail: per(usage.processes.worker),
      workerShares: [1],
      postgresCpuMsPerEmail: per(usage.postgresMs),
      ownPostgresCpuMsPerEmail: per(ownPostgresMs),
      otherCores: usage.otherCores,
      timedOut: false,
      checks: `${check!.n} rows = ${check!.contacts} distinct contacts`,
      note: `${run.chunks} chunks`,
    };
    log(`${variant}: ${run.rows} rows in ${figure.seconds.toFixed(1)} s = ${figure.emailsPerSecond.toFixed(0)}/s`);
    return figure;
  } finally {
    await worker.stop();
    await world.sql`drop table if exists email_recipients_bare, emails_bare`;
  }
}

/* ------------------------------------------------------------------ delivery ------------------ */

export interface DeliveryFigure {
  variant: string;
  messages: number;
  seconds: number;
  messagesPerSecond: number;
  workerCpuMsPerMessage: number | null;
  postgresCpuMsPerMessage: number | null;
  ownPostgresCpuMsPerMessage: number | null;
  peerCpuMsPerMessage: number | null;
  otherCores: number | null;
  sinkConnections: number;
  dnsQueries: number;
  dkim: string;
  listUnsubscribeSigned: boolean | null;
  checks: string;
  note?: string;
}

/** mailauth against the loopback DNS; the signature must pass and its h= must name List-Unsubscribe (and List-Unsubscribe-Post). */
async function checkDkim(world: World, samples: Sample[], requireListUnsubscribe: boolean): Promise<{ verdict: string; listUnsubscribeSigned: boolean }> {
  const sample = samples[0];
  if (!sample) throw new Error('the sink kept no message to check');
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
  const header = sample.raw.slice(0, sample.raw.indexOf('\r\n\r\n'));
  const signature = /^dkim-signature:([^\r\n]*(?:\r\n[ \t][^\r\n]*)*)/im.exec(header)?.[1]?.replace(/\r\n[ \t]/g, '') ?? '';
  const signed = (/(?:^|;)\s*h=([^;]*)/.exec(signature)?.[1] ?? '').split(':').map((name) => name.trim().toLowerCase());
  const listUnsubscribeSigned = signed.includes('list-unsubscribe') && signed.includes('list-unsubscribe-post');
  const present = /^list-unsubscribe:/im.test(header) && /^list-unsubscribe-post: *List-Unsubscribe=One-Click/im.test(header);
  if (requireListUnsubscribe && (!present || !listUnsubscribeSigned)) {
    throw new Error(`a delivered broadcast message lacks List-Unsubscribe(-Post) or does not sign it (h=${signed.join(':')})`);
  }
  return { verdict, listUnsubscribeSigned };
}

async function deliveredIds(world: World): Promise<Set<string>> {
  const rows = await world.sql<Array<{ id: string }>>`select id::text from emails where status = 'delivered'`;
  return new Set(rows.map((row) => row.id));
}

export async function serviceDelivery(world: World, path: 'relay' | 'mx', loops: number): Promise<DeliveryFigure> {
  const env: Record<string, string> =
    path === 'relay' ? { SMTP_RELAY_URL: `smtp://127.0.0.1:${world.smtpPort}` } : { SMTP_MX_PORT: String(world.smtpPort), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8' };
  const [due] = await world.sql<Array<{ n: number }>>`select count(*)::int as n from emails where status = 'queued' and broadcast_id is not null`;
  if (due!.n === 0) throw new Error(`service ${path}: no queued broadcast email left to deliver`);
  const id = `dispatch-${path}-x${loops}`;
  const worker = forkWorker(id, 'dispatch-worker.ts', { ...world.serviceEnv, ...env }, { profile: settings.profile });
  try {
    await worker.receive<{ ready: true }>(60_000);
    await settle(world);
    const before = await deliveredIds(world);
    await world.peer.ask({ op: 'reset' });
    await world.peer.ask({ op: 'track-ids' });
    const variant = `service, ${path === 'relay' ? 'relay (pooled)' : 'direct MX'}, ${loops} sweep loop${loops > 1 ? 's' : ''}`;
    log(`${variant}: sweepEmailDispatch for up to ${settings.deliverSeconds} s (${due!.n} broadcast emails queued)`);
    const window = cpuWindow({ worker: worker.child.pid, peer: world.peer.child.pid });
    const ownPostgres = ownPostgresWindow(world.databaseName);
    const limitMs = settings.deliverSeconds * 1000;
    // A sweep in progress finishes before the loop sees the limit.
    const run = await worker.ask<DispatchRun>({ op: 'run', loops, limitMs }, limitMs + 120_000);
    const usage = window.end();
    const ownPostgresMs = ownPostgres();
    const stats = await world.peer.ask<PeerStats>({ op: 'stats' });
    const { samples } = await world.peer.ask<{ samples: Sample[] }>({ op: 'samples' });
    const tally = await world.peer.ask<IdTally>({ op: 'ids' });
    const after = await deliveredIds(world);
    const fresh = [...after].filter((emailId) => !before.has(emailId));
    const rows = await world.sql<Array<{ status: string; n: number }>>`select status, count(*)::int as n from emails group by status`;
    const byStatus = Object.fromEntries(rows.map((row) => [row.status, row.n]));
    const [tallied] = await world.sql<Array<{ delivered: number; sent: number }>>`select coalesce(sum(delivered), 0)::int as delivered, coalesce(sum(sent), 0)::int as sent from broadcasts`;
    // Each email delivered in this run reached the sink exactly once, and nothing else did.
    const sinkIds = new Set(tally.ids);
    const problems: string[] = [];
    if (run.leftInFlight) problems.push(`${run.leftInFlight} deliveries still in flight a minute after the last sweep`);
    if (stats.messages !== fresh.length) problems.push(`${stats.messages} messages reached the sink for ${fresh.length} delivered`);
    if (tally.repeated.length > 0) problems.push(`${tally.repeated.length} emails reached the sink more than once (e.g. ${tally.repeated[0]!.join(' x')})`);
    if (tally.unmatched > 0) problems.push(`${tally.unmatched} messages without the service's Message-ID`);
    if (sinkIds.size !== fresh.length || fresh.some((emailId) => !sinkIds.has(emailId))) problems.push('the ids received are not the ids delivered');
    for (const status of ['sending', 'failed', 'bounced']) if (byStatus[status]) problems.push(`${byStatus[status]} emails ${status}`);
    if (tallied!.delivered !== after.size) problems.push(`the broadcasts count ${tallied!.delivered} delivered, the emails table ${after.size}`);
    if (problems.length > 0) throw new Error(`${variant}: ${problems.join('; ')} (${JSON.stringify(byStatus)}, run ${JSON.stringify(run)})`);
    const dkim = await checkDkim(world, samples, true);
    const delivered = fresh.length;
    const per = (ms: number | null | undefined) => (ms == null || delivered === 0 ? null : ms / delivered);
    const figure: DeliveryFigure = {
      variant,
      messages: delivered,
      seconds: run.ms / 1000,
      messagesPerSecond: delivered / (run.ms / 1000),
      workerCpuMsPerMessage: per(usage.processes.worker),
      postgresCpuMsPerMessage: per(usage.postgresMs),
      ownPostgresCpuMsPerMessage: per(ownPostgresMs),
      peerCpuMsPerMessage: per(usage.processes.peer),
      otherCores: usage.otherCores,
      sinkConnections: stats.connections,
      dnsQueries: stats.dnsQueries,
      dkim: dkim.verdict,
      listUnsubscribeSigned: dkim.listUnsubscribeSigned,
      checks: `${delivered} delivered = ${sinkIds.size} distinct at the sink, none twice; broadcasts' delivered count ${tallied!.delivered} = ${after.size} delivered in all`,
      note:
        `${run.sweeps} sweep${run.sweeps === 1 ? '' : 's'}${run.idleSweeps ? `, ${run.idleSweeps} found only emails claimed by another loop` : ''}` +
        (run.timedOut ? `; time-boxed at ${settings.deliverSeconds} s, ${byStatus.queued ?? 0} still queued` : '; every queued email delivered'),
    };
    log(`${variant}: ${delivered} delivered in ${figure.seconds.toFixed(1)} s = ${figure.messagesPerSecond.toFixed(0)}/s`);
    return figure;
  } finally {
    await worker.stop();
  }
}

/** One contact's copy as the floor renders it: plain string replaces, an unsubscribe URL of the service's shape. */
function bareCopy(contact: { email: string; name: string | null }): { html: string; headers: Record<string, string> } {
  const token = randomBytes(44).toString('base64url');
  const url = `${APP_URL}/unsubscribe/${token}`;
  const html = BROADCAST_HTML.replaceAll('{{ name }}', contact.name ?? '')
    .replaceAll('{{ email }}', contact.email)
    .replaceAll('{{ unsubscribe_url }}', url);
  return { html, headers: { 'List-Unsubscribe': `<${url}>, <mailto:u-${token}@${MAIL_HOST}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', Precedence: 'bulk' } };
}

export async function bareDelivery(world: World, count: number): Promise<DeliveryFigure> {
  const key = await signingKeyOf(world.runtime.deps, world.domainId);
  if (!key) throw new Error('no signing key for the bare sender');
  const worker = forkWorker('bare-smtp-nodelay', 'bare-smtp.ts', {});
  try {
    await worker.receive<{ ready: true }>(30_000);
    await world.peer.ask({ op: 'reset' });
    const contact = contactOf(0);
    const copy = bareCopy(contact);
    const job: BareSmtpJob = {
      op: 'run',
      count,
      port: world.smtpPort,
      pooled: true,
      concurrency: 5,
      noDelay: true,
      dkim: { domainName: SENDER_DOMAIN, keySelector: key.selector, privateKey: key.privateKeyPem },
      message: { from: FROM, to: contact.email, subject: SUBJECT, html: copy.html },
      headers: { ...copy.headers, 'Feedback-ID': `bench:${world.organizationId}:broadcast:eumail` },
    };
    const variant = 'bare nodemailer, pooled (5 connections) + TCP_NODELAY';
    log(`${variant}: ${count} DKIM-signed messages`);
    const window = cpuWindow({ worker: worker.child.pid, peer: world.peer.child.pid });
    const run = await worker.ask<BareSmtpRun>(job, 120_000 + count * 20);
    const usage = window.end();
    const stats = await world.peer.ask<PeerStats>({ op: 'stats' });
    const { samples } = await world.peer.ask<{ samples: Sample[] }>({ op: 'samples' });
    if (run.sent !== count || stats.messages !== count) throw new Error(`${variant}: ${run.sent} sent, ${stats.messages} reached the sink of ${count} (${run.firstError ?? 'no error'})`);
    const dkim = await checkDkim(world, samples, true);
    const per = (ms: number | null | undefined) => (ms == null ? null : ms / run.sent);
    const figure: DeliveryFigure = {
      variant,
      messages: run.sent,
      seconds: run.ms / 1000,
      messagesPerSecond: run.sent / (run.ms / 1000),
      workerCpuMsPerMessage: per(usage.processes.worker),
      postgresCpuMsPerMessage: null,
      ownPostgresCpuMsPerMessage: null,
      peerCpuMsPerMessage: per(usage.processes.peer),
      otherCores: usage.otherCores,
      sinkConnections: stats.connections,
      dnsQueries: stats.dnsQueries,
      dkim: dkim.verdict,
      listUnsubscribeSigned: dkim.listUnsubscribeSigned,
      checks: `${run.sent} sent = ${stats.messages} at the sink`,
    };
    log(`${variant}: ${run.sent} in ${figure.seconds.toFixed(1)} s = ${figure.messagesPerSecond.toFixed(0)}/s`);
    return figure;
  } finally {
    await worker.stop();
  }
}

/* ------------------------------------------------------------------ output -------------------- */

export function printHandOff(figures: HandOffFigure[]): void {
  printTable(
    ['hand-off', 'contacts', 'emails queued', 's', 'emails/s', 'worker CPU ms/email', 'worker split', 'pg CPU ms/email', 'pg (this db) ms/email', 'other procs (cores)'],
    figures.map((f) => [
      f.variant + (f.timedOut ? ' (time-boxed)' : ''),
      String(f.contacts),
      String(f.emails),
      f.seconds.toFixed(1),
      f.emailsPerSecond.toFixed(0),
      fixed(f.workerCpuMsPerEmail, 3),
      f.workerShares.map((share) => `${Math.round(share * 100)} %`).join(' / '),
      fixed(f.postgresCpuMsPerEmail, 3),
      fixed(f.ownPostgresCpuMsPerEmail, 3),
      fixed(f.otherCores, 2),
    ]),
  );
  const bare = figures.find((f) => f.variant.startsWith('bare'));
  for (const f of figures.filter((f) => f.variant.startsWith('service'))) {
    // The target is for 100,000 contacts; at another size it is scaled.
    const target = (TARGETS.handOffSeconds * settings.contacts) / TARGETS.handOffContacts;
    console.log(
      `${f.variant}: ${f.emails} emails queued in ${f.seconds.toFixed(1)} s (${!f.timedOut && f.seconds <= target ? 'meets' : 'BELOW'} the target of ${target.toFixed(0)} s for ${settings.contacts} contacts)` +
        (bare ? `; bare ${bare.seconds.toFixed(1)} s, service = ${((f.emailsPerSecond / bare.emailsPerSecond) * 100).toFixed(1)} % of the floor's rate` : '') +
        `. ${f.checks}. ${f.note ?? ''}`,
    );
  }
}

function printActivity(figures: HandOffFigure[]): void {
  for (const f of figures.filter((f) => f.activity)) {
    console.log(`\n${f.variant}: the workers' Postgres backends, share of samples (pg_stat_activity every 5 ms):`);
    printTable(
      ['state / statement', 'share'],
      f.activity!.filter((a) => a.share >= 0.005).map((a) => [a.what, `${(a.share * 100).toFixed(1)} %`]),
    );
  }
}

export function printDelivery(figures: DeliveryFigure[]): void {
  printTable(
    ['delivery', 'messages', 's', 'messages/s', 'sender CPU ms/msg', 'pg CPU ms/msg', 'pg (this db) ms/msg', 'sink+DNS CPU ms/msg', 'connections', 'DNS queries', 'DKIM', 'h= List-Unsubscribe', 'other procs (cores)'],
    figures.map((f) => [
      f.variant,
      String(f.messages),
      f.seconds.toFixed(1),
      f.messagesPerSecond.toFixed(0),
      fixed(f.workerCpuMsPerMessage, 3),
      fixed(f.postgresCpuMsPerMessage, 3),
      fixed(f.ownPostgresCpuMsPerMessage, 3),
      fixed(f.peerCpuMsPerMessage, 3),
      String(f.sinkConnections),
      String(f.dnsQueries),
      f.dkim,
      f.listUnsubscribeSigned === null ? 'n/a' : f.listUnsubscribeSigned ? 'signed' : 'NOT signed',
      fixed(f.otherCores, 2),
    ]),
  );
  const bare = figures.find((f) => f.variant.startsWith('bare'));
  for (const f of figures.filter((f) => f.variant.startsWith('service'))) {
    console.log(
      `${f.variant}: ${f.messagesPerSecond.toFixed(0)} delivered/s (${f.messagesPerSecond >= TARGETS.deliverPerSecond ? 'meets' : 'BELOW'} the target of ${TARGETS.deliverPerSecond}/s)` +
        (bare ? `, ${((f.messagesPerSecond / bare.messagesPerSecond) * 100).toFixed(0)} % of the floor` : '') +
        `. ${f.checks}; ${f.note ?? ''}`,
    );
  }
}

/* ------------------------------------------------------------------ main ---------------------- */

export async function runBroadcastsSuite(): Promise<void> {
  const started = Date.now();
  noteLoadAverage();
  const world = await setUp();
  const report: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: machineInfo(),
    settings: { ...settings, chunkContacts: CHUNK_CONTACTS, targets: TARGETS },
    seedSeconds: world.seedSeconds,
  };

  const handOff: HandOffFigure[] = [];
  if (settings.bare) handOff.push(await bareHandOff(world));
  for (const [ordinal, processes] of settings.fanOutProcesses.entries()) handOff.push(await serviceHandOff(world, processes, ordinal));
  printHandOff(handOff);
  printActivity(handOff);
  report.handOff = handOff;

  const delivery: DeliveryFigure[] = [];
  if (settings.deliverPaths.length > 0 && settings.fanOutProcesses.length > 0) {
    for (const path of settings.deliverPaths) delivery.push(await serviceDelivery(world, path, settings.deliverLoops));
    // The floor sends as many messages as the first (headline) service run delivered.
    if (settings.bare) delivery.push(await bareDelivery(world, delivery[0]!.messages));
    printDelivery(delivery);
    report.delivery = delivery;
  }

  const busiest = Math.max(0, ...handOff.map((f) => f.otherCores ?? 0), ...delivery.map((f) => f.otherCores ?? 0));
  if (busiest > 0.2) {
    console.log(
      `WARNING: other processes used up to ${busiest.toFixed(2)} of ${os.cpus().length} cores during a measured run; ` +
        'rates are then low and not comparable between rows (CPU ms per email holds up better). Re-run on a quiet machine.',
    );
  }
  report.loadAverageAtEnd = os.loadavg()[0];
  report.wallSeconds = Math.round((Date.now() - started) / 100) / 10;
  writeResult('broadcasts-latest.json', report);
  log(`wrote bench/results/broadcasts-latest.json (${report.wallSeconds} s)`);
}
