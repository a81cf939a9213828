/**
 * The hand-off floor: node + postgres-js turning an audience into queued email rows with nothing
 * of the service around it. One connection, as the service's one fan-out loop; per 500 contacts:
 * read the audience's next members by contact id after a cursor (its memberships joined to their
 * contacts: the service's read, order and chunk), render the personalised HTML with plain string
 * replaces (HTML-escaped values, the unsubscribe token naming the membership and the email, a
 * truncated HMAC-SHA256 as the service's), and one multi-row INSERT of the 500 rows, with the
 * columns and values the service writes into `emails` for a broadcast message, autocommitted (one
 * commit per chunk, as the service's chunk transaction). No history or event-log rows, no
 * sending-limits reservation, no broadcast row: those are the service's own work.
 *
 * Forked by bench/suite-broadcasts.ts with DATABASE_URL: connects, sends { ready: true }, then
 * answers { op: 'run', ... } (BareFanOutJob) with BareFanOutRun. Its connection stays open until
 * the process is stopped, so the driver can read its backend's CPU after the run.
 */
import { createHmac } from 'node:crypto';
import postgres from 'postgres';
import { newId } from '../server/ids';
import { exitWithError } from './child-failure';

export interface BareFanOutJob {
  op: 'run';
  /** Where the rows go (a copy of `emails`, so the service's table stays as it was). */
  table: string;
  /** Where their recipients' rows go (a copy of `email_recipients` whose foreign key names `table`). */
  recipientsTable: string;
  organizationId: string;
  domainId: string;
  audienceId: string;
  /** The newest contact included (the service's lastContactId). */
  lastContactId: string;
  broadcastId: string;
  from: string;
  fromAddress: string;
  replyTo: string[];
  subject: string;
  /** Liquid-shaped: {{ name }}, {{ email }}, {{ unsubscribe_url }}, replaced as plain strings. */
  html: string;
  appUrl: string;
  mailHost: string;
  /** ENCRYPTION_KEY, base64. */
  encryptionKey: string;
  chunk: number;
}

export interface BareFanOutRun {
  rows: number;
  chunks: number;
  ms: number;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');

/** The columns the service's store statement fills for a broadcast message (everything else keeps its default). */
const COLUMNS = [
  'id', 'organization_id', 'mode', 'domain_id', 'api_key_id', 'from', 'from_address', 'to', 'cc', 'bcc', 'reply_to',
  'recipient_addresses', 'subject', 'html', 'text', 'headers', 'tags', 'tag_keys', 'track_opens', 'track_clicks', 'status',
  'scheduled_at', 'next_attempt_at', 'idempotency_key', 'idempotency_expires_at', 'broadcast_id',
  'contact_id', 'created_at', 'updated_at',
] as const;

const sql = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });

async function run(job: BareFanOutJob): Promise<BareFanOutRun> {
  const key = createHmac('sha256', Buffer.from(job.encryptionKey, 'base64')).update('eumail unsubscribe v1').digest();
  const result: BareFanOutRun = { rows: 0, chunks: 0, ms: 0 };
  const started = performance.now();
  let cursor = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const contacts = await sql<Array<{ id: string; membershipId: string; email: string; name: string | null; subscribed: boolean }>>`
      select c.id, m.id as "membershipId", c.email, c.name, m.subscribed and not c.unsubscribed as subscribed
      from audience_memberships m join contacts c on c.id = m.contact_id
      where m.audience_id = ${job.audienceId} and m.contact_id > ${cursor} and m.contact_id <= ${job.lastContactId}
      order by m.contact_id limit ${job.chunk}`;
    if (contacts.length === 0) break;
    const now = new Date();
    const rows = contacts
      .filter((contact) => contact.subscribed)
      .map((contact) => {
        const id = newId();
        const body = Buffer.concat([uuidBytes(contact.membershipId), uuidBytes(id)]);
        const token = Buffer.concat([body, createHmac('sha256', key).update(body).digest().subarray(0, 12)]).toString('base64url');
        const url = `${job.appUrl}/unsubscribe/${token}`;
        const html = job.html
          .replaceAll('{{ name }}', escapeHtml(contact.name ?? ''))
          .replaceAll('{{ email }}', escapeHtml(contact.email))
          .replaceAll('{{ unsubscribe_url }}', escapeHtml(url));
        const headers = {
          'List-Unsubscribe': `<${url}>, <mailto:u-${token}@${job.mailHost}>`,
          ...(url.startsWith('https:') ? { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}),
          Precedence: 'bulk',
        };
        return {
          id,
          organization_id: job.organizationId,
          mode: 'live',
          domain_id: job.domainId,
          api_key_id: null,
          from: job.from,
          from_address: job.fromAddress,
          to: [contact.email],
          cc: [],
          bcc: [],
          reply_to: job.replyTo,
          recipient_addresses: [contact.email],
          subject: job.subject,
          html,
          text: null,
          headers: JSON.stringify(headers),
          tags: '[]',
          tag_keys: [],
          track_opens: false,
          track_clicks: false,
          status: 'queued',
          scheduled_at: null,
          next_attempt_at: now,
          idempotency_key: null,
          idempotency_expires_at: null,
          broadcast_id: job.broadcastId,
          contact_id: contact.id,
          created_at: now,
          updated_at: now,
        };
      });
    if (rows.length > 0) {
      // The emails and their recipients' rows in one statement, as the service stores them.
      const address = rows.map((row) => row.to[0]!);
      await sql`with stored as (insert into ${sql(job.table)} ${sql(rows, ...COLUMNS)} returning id)
        insert into ${sql(job.recipientsTable)} (email_id, recipient_index, address, status, provider)
        select e, 0, a, 'pending', lower(split_part(a, '@', 2)) from unnest(${rows.map((row) => row.id)}::uuid[], ${address}::text[]) as r(e, a)
        where e in (select id from stored)`;
    }
    result.rows += rows.length;
    result.chunks++;
    cursor = contacts[contacts.length - 1]!.id;
    if (contacts.length < job.chunk) break;
  }
  result.ms = performance.now() - started;
  return result;
}

process.on('message', (job: BareFanOutJob) => {
  run(job)
    .then((result) => process.send!(result))
    .catch(exitWithError);
});
const stop = () => void sql.end({ timeout: 2 }).finally(() => process.exit(0));
process.on('disconnect', stop);
process.on('SIGTERM', stop);
await sql`select 1`;
process.send!({ ready: true });
