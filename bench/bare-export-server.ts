/**
 * The floor of the contacts suite's export: plain node:http + postgres-js, no authentication, no
 * framework. `GET /export?organization=<uuid>` streams the organization's suppressions as the
 * service's CSV (same header, columns, order, CRLF, formula prefix and quoting), read through ONE
 * server-side cursor of 5,000 rows at a time (the service reads chunks of 5,000 by id), each chunk
 * written to the socket as one string, waiting for `drain` when the socket is full.
 *
 * Started by bench/suite-contacts.ts; prints `READY <port>` when listening on 127.0.0.1.
 */
import type http from 'node:http';
import postgres from 'postgres';
import { serveTarget } from './serve-target';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
const sql = postgres(databaseUrl, { max: Number(process.env.BENCH_POOL_SIZE ?? 10), onnotice: () => {} });

const CHUNK_ROWS = 5_000;
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']);

/** csv-stringify's rules as the service configures them (escape_formulas, quote on `"`, `,`, CR, LF). */
function cell(value: string): string {
  let out = FORMULA_START.has(value[0] ?? '') ? `'${value}` : value;
  if (/[",\r\n]/.test(out)) out = `"${out.replaceAll('"', '""')}"`;
  return out;
}

function write(res: http.ServerResponse, text: string): Promise<void> {
  if (res.write(text)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      res.off('drain', done);
      res.off('close', closed);
      if (error) reject(error);
      else resolve();
    };
    const closed = () => done(new Error('the client went away'));
    res.once('drain', () => done());
    res.once('close', closed);
  });
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const organization = url.searchParams.get('organization');
  if (req.method !== 'GET' || url.pathname !== '/export' || !organization) {
    res.statusCode = 404;
    res.end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="suppressions.csv"' });
  await write(res, 'email,reason,created_at\r\n');
  await sql<Array<{ email: string; reason: string; created_at: Date }>>`
    select email, reason, created_at from suppressions where organization_id = ${organization} order by id desc`.cursor(CHUNK_ROWS, async (rows) => {
    let text = '';
    for (const row of rows) text += `${cell(row.email)},${cell(row.reason)},${row.created_at.toISOString()}\r\n`;
    await write(res, text);
  });
  res.end();
}

void serveTarget('bare-export', handle, () => sql.end({ timeout: 2 }));
