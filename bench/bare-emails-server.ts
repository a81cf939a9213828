/**
 * The floor of the emails suite: plain node:http + postgres-js (pool 10, prepared statements,
 * like bench/bare-server.ts) doing the least the emails endpoints must do, with no framework, no
 * validation beyond what the SQL needs, no history rows and no send checks:
 *
 *   POST /api/emails         key lookup, then ONE statement inserting a row like the service's (the
 *                            sender's verified domain looked up inside it) and its recipients'
 *                            rows, answer { id }
 *   POST /api/emails/batch   key lookup, the senders' verified domains in one query, then ONE
 *                            statement: a multi-row insert of all items and of their recipients'
 *                            rows, answer { data: [{ id }...] }
 *   GET  /api/emails         key lookup, the same filters as the service (status, from, to, tag,
 *                            cursor) over the summary columns only, newest first, limit + 1
 *   GET  /api/emails/{id}    key lookup, the organization's row and its event history (the soak
 *                            suite's detail reads)
 *
 * Started by bench/suite-emails.ts; prints `READY <port>` when listening on 127.0.0.1.
 */
import { createHash } from 'node:crypto';
import type http from 'node:http';
import postgres from 'postgres';
import { newId } from '../server/ids';
import { serveTarget } from './serve-target';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
const sql = postgres(databaseUrl, { max: Number(process.env.BENCH_POOL_SIZE ?? 10), onnotice: () => {} });

const send = (res: http.ServerResponse, status: number, body: unknown) => {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(body));
};

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

interface Principal {
  key_id: string;
  organization_id: string;
  mode: string;
}

async function authenticate(req: http.IncomingMessage): Promise<Principal | null> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match) return null;
  const hash = createHash('sha256').update(match[1]!).digest('hex');
  const [principal] = await sql<Principal[]>`
    select k.id as key_id, k.organization_id, k.mode
    from api_keys k join organizations o on k.organization_id = o.id
    where k.key_hash = ${hash} and k.revoked_at is null`;
  return principal ?? null;
}

interface EmailInput {
  from: string;
  to: string | string[];
  subject: string;
  html?: string;
  text?: string;
  tags?: Array<{ name: string; value: string }>;
}

const addressOf = (mailbox: string) => (/<([^>]+)>/.exec(mailbox)?.[1] ?? mailbox).trim().toLowerCase();
const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);

/** The row the service writes for an email, minus what the database fills in. */
function rowOf(principal: Principal, input: EmailInput, domain: { id: string; open_tracking: boolean; click_tracking: boolean }) {
  const to = Array.isArray(input.to) ? input.to : [input.to];
  const recipients = [...new Set(to.map(addressOf))];
  const tags = input.tags ?? [];
  const now = new Date();
  return {
    id: newId(),
    organization_id: principal.organization_id,
    mode: principal.mode,
    domain_id: domain.id,
    api_key_id: principal.key_id,
    from: input.from,
    from_address: addressOf(input.from),
    to,
    cc: [] as string[],
    bcc: [] as string[],
    reply_to: [] as string[],
    recipient_addresses: recipients,
    subject: input.subject,
    html: input.html ?? null,
    text: input.text ?? null,
    headers: sql.json({}),
    tags: sql.json(tags),
    tag_keys: [...new Set(tags.flatMap((tag) => [tag.name, `${tag.name}:${tag.value}`]))],
    track_opens: domain.open_tracking,
    track_clicks: domain.click_tracking,
    status: 'queued',
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  };
}

/** The recipients' rows of these emails (envelope order), as unnest() arrays. */
function recipientColumns(emails: Array<{ id: string; recipients: string[] }>) {
  const columns = { email_id: [] as string[], recipient_index: [] as number[], address: [] as string[], provider: [] as string[] };
  for (const email of emails) {
    email.recipients.forEach((address, index) => {
      columns.email_id.push(email.id);
      columns.recipient_index.push(index);
      columns.address.push(address);
      columns.provider.push(domainOf(address));
    });
  }
  return columns;
}

const insertRecipients = (columns: ReturnType<typeof recipientColumns>) => sql`
  insert into email_recipients (email_id, recipient_index, address, status, provider)
  select e, i, a, 'pending', p from unnest(${columns.email_id}::uuid[], ${columns.recipient_index}::int[], ${columns.address}::text[], ${columns.provider}::text[]) as r(e, i, a, p)
    where e in (select id from stored)`;

async function sendOne(principal: Principal, input: EmailInput): Promise<string | null> {
  const from = addressOf(input.from);
  const to = Array.isArray(input.to) ? input.to : [input.to];
  const recipients = [...new Set(to.map(addressOf))];
  const tags = input.tags ?? [];
  const id = newId();
  const [row] = await sql<Array<{ id: string }>>`
    with stored as (
      insert into emails (id, organization_id, mode, domain_id, api_key_id, "from", from_address, "to", cc, bcc, reply_to,
        recipient_addresses, subject, html, text, headers, tags, tag_keys, track_opens, track_clicks, status,
        next_attempt_at, created_at, updated_at)
      select ${id}, ${principal.organization_id}, ${principal.mode}, d.id, ${principal.key_id}, ${input.from}, ${from}, ${to}, '{}', '{}', '{}',
        ${recipients}, ${input.subject}, ${input.html ?? null}, ${input.text ?? null}, '{}'::jsonb, ${sql.json(tags)},
        ${[...new Set(tags.flatMap((tag) => [tag.name, `${tag.name}:${tag.value}`]))]}, d.open_tracking, d.click_tracking, 'queued',
        now(), now(), now()
      from domains d
      where d.organization_id = ${principal.organization_id} and d.name = ${domainOf(from)} and d.status = 'verified'
      returning id
    ), recipients as (${insertRecipients(recipientColumns([{ id, recipients }]))})
    select id from stored`;
  return row?.id ?? null;
}

const COLUMNS = [
  'id', 'organization_id', 'mode', 'domain_id', 'api_key_id', 'from', 'from_address', 'to', 'cc', 'bcc', 'reply_to',
  'recipient_addresses', 'subject', 'html', 'text', 'headers', 'tags', 'tag_keys', 'track_opens', 'track_clicks', 'status',
  'next_attempt_at', 'created_at', 'updated_at',
] as const;

async function sendBatch(principal: Principal, items: EmailInput[]): Promise<Array<{ id: string } | { error: string; code: string }>> {
  const names = [...new Set(items.map((item) => domainOf(addressOf(item.from))))];
  const found = await sql<Array<{ id: string; name: string; open_tracking: boolean; click_tracking: boolean }>>`
    select id, name, open_tracking, click_tracking from domains
    where organization_id = ${principal.organization_id} and name = any(${names}) and status = 'verified'`;
  const byName = new Map(found.map((domain) => [domain.name, domain]));
  const outcomes: Array<{ id: string } | { error: string; code: string }> = [];
  const rows: Array<ReturnType<typeof rowOf>> = [];
  for (const item of items) {
    const domain = byName.get(domainOf(addressOf(item.from)));
    if (!domain) {
      outcomes.push({ error: 'not a verified domain', code: 'DOMAIN_NOT_VERIFIED' });
      continue;
    }
    const row = rowOf(principal, item, domain);
    rows.push(row);
    outcomes.push({ id: row.id });
  }
  if (rows.length > 0) {
    await sql`with stored as (insert into emails ${sql(rows, ...COLUMNS)} returning id), recipients as (${insertRecipients(
      recipientColumns(rows.map((row) => ({ id: row.id, recipients: row.recipient_addresses }))),
    )}) select count(*) from stored`;
  }
  return outcomes;
}

interface SummaryRow {
  id: string;
  from: string;
  to: string[];
  subject: string;
  status: string;
  tags: Array<{ name: string; value: string }>;
  scheduled_at: Date | null;
  created_at: Date;
}

async function list(principal: Principal, query: URLSearchParams) {
  const limit = Math.min(100, Number(query.get('limit') ?? 10) || 10);
  const status = query.get('status');
  const from = query.get('from')?.trim().toLowerCase();
  const to = query.get('to')?.trim().toLowerCase();
  const tags = query.getAll('tag');
  const cursor = query.get('cursor');
  const rows = await sql<SummaryRow[]>`
    select id, "from", "to", subject, status, tags, scheduled_at, created_at
    from emails
    where organization_id = ${principal.organization_id} and mode = ${principal.mode}
      ${status ? sql`and status = ${status}` : sql``}
      ${from ? sql`and from_address = ${from}` : sql``}
      ${to ? sql`and recipient_addresses @> ${[to]}` : sql``}
      ${tags.length > 0 ? sql`and tag_keys @> ${tags}` : sql``}
      ${cursor ? sql`and id < ${cursor}` : sql``}
    order by id desc
    limit ${limit + 1}`;
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return {
    data: page.map((row) => ({
      id: row.id,
      from: row.from,
      to: row.to,
      subject: row.subject,
      status: row.status,
      tags: row.tags,
      scheduledAt: row.scheduled_at?.toISOString() ?? null,
      createdAt: row.created_at.toISOString(),
    })),
    next_cursor: more ? page[page.length - 1]!.id : null,
  };
}

async function detail(principal: Principal, id: string) {
  const [row] = await sql<Array<Record<string, unknown>>>`
    select * from emails where id = ${id} and organization_id = ${principal.organization_id} and mode = ${principal.mode}`;
  if (!row) return null;
  const events = await sql<Array<{ type: string; recipient: string | null; data: unknown; created_at: Date }>>`
    select type, recipient, data, created_at from email_events where email_id = ${id} order by id`;
  return { ...row, events: events.map((event) => ({ ...event, created_at: event.created_at.toISOString() })) };
}

const DETAIL = /^\/api\/emails\/([0-9a-f-]{36})$/;

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const route = `${req.method} ${url.pathname}`;
  const detailId = req.method === 'GET' ? DETAIL.exec(url.pathname)?.[1] : undefined;
  if (route !== 'POST /api/emails' && route !== 'POST /api/emails/batch' && route !== 'GET /api/emails' && !detailId) {
    return send(res, 404, { error: 'Not found', code: 'NOT_FOUND' });
  }
  const principal = await authenticate(req);
  if (!principal) return send(res, 401, { error: 'Missing, malformed or revoked API key', code: 'UNAUTHORIZED' });
  if (route === 'GET /api/emails') return send(res, 200, await list(principal, url.searchParams));
  if (detailId) {
    const email = await detail(principal, detailId);
    return email ? send(res, 200, email) : send(res, 404, { error: 'Email not found', code: 'NOT_FOUND' });
  }
  let body: unknown;
  try {
    body = await readBody(req);
  } catch {
    // autocannon closing its connections mid-request at the end of a run, or a body that is not JSON
    if (!req.destroyed && !res.headersSent) send(res, 400, { error: 'The body must be JSON', code: 'VALIDATION_ERROR' });
    return;
  }
  if (route === 'POST /api/emails/batch') {
    if (!Array.isArray(body) || body.length === 0 || body.length > 100) return send(res, 422, { error: 'A batch holds 1 to 100 emails', code: 'VALIDATION_ERROR' });
    return send(res, 200, { data: await sendBatch(principal, body as EmailInput[]) });
  }
  const id = await sendOne(principal, body as EmailInput);
  if (!id) return send(res, 403, { error: 'not a verified domain of this account', code: 'DOMAIN_NOT_VERIFIED' });
  send(res, 200, { id });
}

void serveTarget('bare-emails', handle, () => sql.end({ timeout: 5 }));
