/**
 * The pre-flight's audience_quality statement at 100,000 contacts, on Postgres:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/preflight-audience.ts
 *
 * Creates a throwaway database (eumail_bench_preflight_<hex>) beside DATABASE_URL's, seeds one
 * organization with PREFLIGHT_CONTACTS contacts (default 100,000), each a member of its audience (2 %
 * of the memberships unsubscribed, 2 % of the addresses suppressed), three earlier broadcasts
 * delivered to every subscribed member (tracked, two events each, 40 % opened, 10 % clicked) and as
 * many transactional emails beside them, then prints EXPLAIN (ANALYZE, BUFFERS) and the timing of
 * the service's read over a few runs. Drops the database at the end, unless PREFLIGHT_KEEP=1;
 * PREFLIGHT_DATABASE=<name> measures again on a database kept from a run before.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { migrate, openDatabase } from '@/db/client';
import { audienceCounts, audienceCountsQuery } from '@/server/services/broadcasts/preflight/audience-read';

const baseUrl = process.env.DATABASE_URL;
if (!baseUrl) throw new Error('DATABASE_URL: the Postgres beside which a throwaway database is created');
const contacts = Number(process.env.PREFLIGHT_CONTACTS ?? 100_000);
const runs = 7;

const kept = process.env.PREFLIGHT_DATABASE;
// Named as bench/harness.ts names the suites' throwaway databases.
const name = kept ?? `eumail_bench_preflight_${randomBytes(4).toString('hex')}`;
const admin = await openDatabase({ url: baseUrl, poolSize: 1 });
if (!kept) await admin.db.execute(sql.raw(`create database ${name}`));
const url = new URL(baseUrl);
url.pathname = `/${name}`;
const database = await openDatabase({ url: url.toString(), poolSize: 2 });
// Seeding statements run for minutes on a busy machine: a plain client, without the service's query bound.
const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
const session = { query: async <T>(text: string, params: unknown[] = []) => [...(await client.unsafe(text, params as never[]))] as T[] };
const say = (line: string) => process.stdout.write(`${line}\n`);

/** One organization, its audience, three earlier broadcasts to it and a draft: the draft's id and the rest. */
async function seed() {
  await migrate(database);
  const org = randomUUID();
  const audience = randomUUID();
  const current = randomUUID();
  const earlier = [randomUUID(), randomUUID(), randomUUID()];
  const started = Date.now();
  say('migrated; seeding');
  // Seeding only: the service's statement is the one under test, built from the schema.
  await session.query(`insert into organizations (id, name, plan, owner_email, contact_count, created_at) values ($1, 'Bench', '100k', 'owner@bench.test', $2, now())`, [
    org,
    contacts,
  ]);
  await session.query(`insert into audiences (id, organization_id, name, contact_count, created_at) values ($1, $2, 'Bench', $3, now())`, [audience, org, contacts]);
  // Each contact and its membership in one statement: `seeded` is read by both (a CTE named twice is computed once).
  await session.query(
    `with seeded as (
       select i, gen_random_uuid() as id from generate_series(1, $3::int) i
     ), stored as (
       insert into contacts (id, organization_id, email, created_at, updated_at)
       select id, $1::uuid, 'reader' || i || '@example.net', now(), now() from seeded
     )
     insert into audience_memberships (id, audience_id, contact_id, organization_id, subscribed, created_at, updated_at)
     select gen_random_uuid(), $2::uuid, id, $1::uuid, i % 50 <> 0, now(), now() from seeded`,
    [org, audience, contacts],
  );
  await session.query(
    `insert into suppressions (id, organization_id, email, reason, created_at)
     select gen_random_uuid(), $1::uuid, 'reader' || i || '@example.net', 'bounce', now() from generate_series(1, $2::int, 50) i`,
    [org, contacts],
  );
  for (const id of [...earlier, current]) {
    await session.query(
      `insert into broadcasts (id, organization_id, audience_id, name, "from", subject, html, status, created_at, updated_at)
       values ($1, $2, $3, 'News', 'news@bench.test', 'News', '<a href="{{ unsubscribe_url }}">x</a>', $4, now(), now())`,
      [id, org, audience, id === current ? 'draft' : 'sent'],
    );
  }
  const emailColumns = `(id, organization_id, mode, "from", from_address, "to", cc, bcc, reply_to, recipient_addresses, subject, headers, tags, tag_keys, track_opens, track_clicks, status, broadcast_id, contact_id, created_at, updated_at)`;
  for (const broadcast of earlier) {
    await session.query(
      `insert into emails ${emailColumns}
       select gen_random_uuid(), $1::uuid, 'live', 'news@bench.test', 'news@bench.test', array[c.email], '{}', '{}', '{}', array[c.email], 'News', '{}', '[]', '{}', true, true, 'delivered', $2::uuid, c.id, now(), now()
       from audience_memberships m join contacts c on c.id = m.contact_id where m.audience_id = $3::uuid and m.subscribed`,
      [org, broadcast, audience],
    );
  }
  await session.query(
    `insert into emails ${emailColumns}
     select gen_random_uuid(), $1::uuid, 'live', 'news@bench.test', 'news@bench.test', array['t' || i || '@example.net'], '{}', '{}', '{}', array['t' || i || '@example.net'], 'Receipt', '{}', '[]', '{}', true, true, 'delivered', null, null, now(), now()
     from generate_series(1, $2::int) i`,
    [org, contacts],
  );
  const events = `insert into email_events (id, email_id, organization_id, type, data, created_at) select gen_random_uuid(), e.id, $1::uuid, $2, '{}'::jsonb, now() from emails e`;
  for (const type of ['email.sent', 'email.delivered']) await session.query(events, [org, type]);
  await session.query(`${events} where e.broadcast_id is not null and abs(hashtext(e.id::text)) % 10 < 4`, [org, 'email.opened']);
  await session.query(`${events} where e.broadcast_id is not null and abs(hashtext(e.id::text)) % 10 = 0`, [org, 'email.clicked']);
  await session.query('analyze');
  const [counts] = await session.query<{ emails: string; events: string }>(`select (select count(*) from emails) as emails, (select count(*) from email_events) as events`);
  say(`seeded ${contacts} contacts, ${counts!.emails} emails, ${counts!.events} email events in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  return { org, audience, current };
}

/** The draft of a database seeded before, and its organization and audience. */
async function seeded() {
  const [row] = await session.query<{ org: string; audience: string; current: string }>(
    `select organization_id as org, audience_id as audience, id as current from broadcasts where status = 'draft'`,
  );
  if (!row) throw new Error(`${name} has no seeded draft broadcast`);
  return row;
}

try {
  const { org, audience, current } = kept ? await seeded() : await seed();
  const query = audienceCountsQuery(database.db, org, audience, current).toSQL();
  const plan = await session.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${query.sql}`, query.params);
  say(plan.map((row) => row['QUERY PLAN']).join('\n'));

  const broadcast = { id: current, from: 'news@bench.test', audienceId: audience, topicId: null, requireConfirmedConsent: false, html: null, text: null, templateId: null };
  const timings: number[] = [];
  let result = null;
  for (let i = 0; i < runs; i += 1) {
    const at = performance.now();
    result = await audienceCounts(database.db, org, broadcast);
    timings.push(performance.now() - at);
  }
  timings.sort((a, b) => a - b);
  say(`audienceCounts: ${JSON.stringify(result)}`);
  say(`wall, ${runs} runs: min ${timings[0]!.toFixed(1)} ms, median ${timings[Math.floor(runs / 2)]!.toFixed(1)} ms, max ${timings[runs - 1]!.toFixed(1)} ms`);

  // Wall time on a shared machine is mostly waiting for a core; the backend's own CPU time is not.
  const [backend] = await session.query<{ pid: number }>('select pg_backend_pid() as pid');
  const cpuMs = () => {
    const fields = readFileSync(`/proc/${backend!.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  };
  await session.query('set jit = off');
  const cpu: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const before = cpuMs();
    await session.query(query.sql, query.params);
    cpu.push(cpuMs() - before);
  }
  cpu.sort((a, b) => a - b);
  say(`Postgres backend CPU, ${runs} runs: min ${cpu[0]} ms, median ${cpu[Math.floor(runs / 2)]} ms, max ${cpu[runs - 1]} ms`);
} finally {
  await client.end({ timeout: 5 });
  await database.close();
  if (process.env.PREFLIGHT_KEEP === '1') say(`kept: PREFLIGHT_DATABASE=${name}`);
  else await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
  await admin.close();
}
