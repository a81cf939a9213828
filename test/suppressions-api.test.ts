import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { stringify } from 'csv-stringify/sync';
import { suppressions } from '@/db/schema';
import type { Db } from '@/db/client';
import { queryRows } from '@/db/client';
import { newId } from '@/server/ids';
import { OPERATOR } from '@/server/services/audit/record';
import { setRateLimit } from '@/server/services/organizations/organizations';
import type { Principal } from '@/server/services/shared/principal';
import { searchCondition } from '@/server/services/suppressions/crud';
import { suppressionHash } from '@/server/services/suppressions/address-hash';
import { CSV_OPTIONS, exportSuppressions } from '@/server/services/suppressions/export';
import { suppressAddress, suppressedAmong } from '@/server/services/suppressions/suppressions';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

const deps = () => app.runtime.deps;

async function org(name = 'Acme') {
  const created = await app.createOrg({ name });
  await setRateLimit(deps(), created.organizationId, 1_000_000, OPERATOR);
  return created;
}

const principalOf = (organizationId: string): Principal => ({
  organizationId,
  permission: 'full_access',
  mode: 'live',
  keyId: null,
  domainId: null,
  userId: null,
  plan: '10k',
  rateLimitOverride: null,
});

const add = (key: string, email: string, reason?: string) => app.request('POST', '/api/suppressions', { key, body: reason ? { email, reason } : { email } });
const list = (key: string, query = '') => app.request('GET', `/api/suppressions${query}`, { key });
const emailsOf = (response: { body: { data: Array<{ email: string }> } }) => response.body.data.map((entry) => entry.email);

/** `count` entries straight into the table, oldest first, in statements of 2,000 rows. */
async function insertMany(organizationId: string, count: number, email: (i: number) => string = (i) => `user${i}@example.com`) {
  const now = app.clock.now();
  for (let from = 0; from < count; from += 2_000) {
    const rows = Array.from({ length: Math.min(2_000, count - from) }, (_, k) => ({
      id: newId(),
      organizationId,
      email: email(from + k),
      reason: 'manual' as const,
      emailId: null,
      createdAt: now,
    }));
    await deps().db.insert(suppressions).values(rows);
  }
}

/** RFC 4180, enough to read the export back: quoted cells with doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      i += 1;
    } else cell += char;
  }
  if (cell !== '' || record.length > 0) throw new Error('the CSV does not end with CRLF');
  return records;
}

describe('GET /suppressions', () => {
  it('pages newest first with limit and cursor', async () => {
    const { apiKey } = await org();
    for (let i = 0; i < 5; i += 1) expect((await add(apiKey, `p${i}@example.com`)).status).toBe(200);
    const first = await list(apiKey, '?limit=2');
    expect(first.status).toBe(200);
    expect(emailsOf(first)).toEqual(['p4@example.com', 'p3@example.com']);
    expect(first.body.data[0]).toEqual({ id: expect.any(String), email: 'p4@example.com', reason: 'manual', createdAt: app.clock.now().toISOString(), emailId: null });
    const second = await list(apiKey, `?limit=2&cursor=${first.body.nextCursor}`);
    expect(emailsOf(second)).toEqual(['p2@example.com', 'p1@example.com']);
    const last = await list(apiKey, `?limit=2&cursor=${second.body.nextCursor}`);
    expect(emailsOf(last)).toEqual(['p0@example.com']);
    expect(last.body.nextCursor).toBeNull();
    // Default 50, bounds 1-1000.
    expect((await list(apiKey)).body.data).toHaveLength(5);
    expect((await list(apiKey, '?limit=1000')).status).toBe(200);
    for (const bad of ['0', '1001', 'x']) {
      const refused = await list(apiKey, `?limit=${bad}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/^limit: /);
    }
    expect((await list(apiKey, '?cursor=nope')).body).toEqual({ error: expect.stringMatching(/^cursor: /), code: 'VALIDATION_ERROR' });
  });

  it('searches a case-insensitive substring, with % _ and \\ taken literally', async () => {
    const { apiKey } = await org();
    for (const email of ['Ada.Lovelace@Example.com', 'a_b@example.com', 'axb@example.com', 'per%cent@example.com', 'plain@example.org', '"back\\\\slash"@example.com']) {
      expect((await add(apiKey, email)).status, email).toBe(200);
    }
    const search = async (term: string) => emailsOf(await list(apiKey, `?search=${encodeURIComponent(term)}`)).sort();
    expect(await search('LOVELACE')).toEqual(['ada.lovelace@example.com']);
    expect(await search('ExAmPlE.CoM')).toHaveLength(5);
    expect(await search('a_b')).toEqual(['a_b@example.com']);
    expect(await search('_')).toEqual(['a_b@example.com']);
    expect(await search('%')).toEqual(['per%cent@example.com']);
    expect(await search('%cent')).toEqual(['per%cent@example.com']);
    expect(await search('\\')).toEqual(['"back\\\\slash"@example.com']);
    expect(await search('nobody')).toEqual([]);
    expect(await search('')).toHaveLength(6);
    expect((await list(apiKey, `?search=${'x'.repeat(255)}`)).body).toEqual({ error: expect.stringMatching(/^search: /), code: 'VALIDATION_ERROR' });
  });

  it('filters by reason, combined with search', async () => {
    const { apiKey, organizationId } = await org();
    const emailId = newId();
    await suppressAddress(deps().db, deps(), { organizationId, email: 'bounced@example.com', reason: 'bounce', emailId });
    await suppressAddress(deps().db, deps(), { organizationId, email: 'complained@example.com', reason: 'complaint', emailId });
    await add(apiKey, 'manual@example.com');
    await add(apiKey, 'left@example.com', 'unsubscribe');
    const bounces = await list(apiKey, '?reason=bounce');
    expect(bounces.body.data).toEqual([expect.objectContaining({ email: 'bounced@example.com', reason: 'bounce', emailId })]);
    expect(emailsOf(await list(apiKey, '?reason=unsubscribe'))).toEqual(['left@example.com']);
    expect(emailsOf(await list(apiKey, '?reason=complaint&search=bounced'))).toEqual([]);
    expect(emailsOf(await list(apiKey, '?reason=manual&search=manual'))).toEqual(['manual@example.com']);
    expect((await list(apiKey, '?reason=spam')).body).toEqual({ error: expect.stringMatching(/^reason: /), code: 'VALIDATION_ERROR' });
  });

  it('writes the search so the trigram index can serve it', async () => {
    const condition = searchCondition('A_b%');
    const explain = async (db: Db) =>
      (await queryRows<Record<string, string>>(db, sql`explain select ${suppressions.id} from ${suppressions} where ${condition}`)).map((row) => Object.values(row)[0]).join('\n');
    const plan = await deps().db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return explain(tx);
    });
    expect(plan).toMatch(/suppressions_email_trgm_idx/);
    // The term is lowercased and its metacharacters escaped, in one bound parameter.
    const { params } = deps().db.select().from(suppressions).where(condition).toSQL();
    expect(params).toEqual(['%a\\_b\\%%']);
  });
});

describe('POST /suppressions', () => {
  it('adds an address, normalised, and answers an address already there with its entry unchanged (200 both times)', async () => {
    const { apiKey, organizationId } = await org();
    const first = await add(apiKey, 'Ada@Example.COM');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ id: expect.any(String), email: 'ada@example.com', reason: 'manual', createdAt: expect.any(String), emailId: null });
    app.clock.advance(60_000);
    const again = await add(apiKey, ' ada@example.com ', 'unsubscribe');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const rows = await deps().db.select().from(suppressions).where(eq(suppressions.organizationId, organizationId));
    expect(rows).toHaveLength(1);
    // Concurrent additions of one address make one entry and all answer with it.
    const answers = await Promise.all(Array.from({ length: 5 }, () => add(apiKey, 'race@example.com')));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it('takes manual or unsubscribe as the reason; bounce and complaint are the service’s own', async () => {
    const { apiKey } = await org();
    expect((await add(apiKey, 'u@example.com', 'unsubscribe')).body.reason).toBe('unsubscribe');
    for (const reason of ['bounce', 'complaint', 'spam']) {
      const refused = await add(apiKey, `${reason}@example.com`, reason);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: expect.stringMatching(/^reason: must be manual or unsubscribe/), code: 'VALIDATION_ERROR' });
    }
  });

  it('refuses what is not an address with a 400 naming email', async () => {
    const { apiKey } = await org();
    for (const email of ['not-an-address', 'a@localhost', 'a@[127.0.0.1]', 'Ada <ada@example.com>', '<ada@example.com>', '', 'a b@example.com', `${'a'.repeat(65)}@example.com`]) {
      const refused = await add(apiKey, email);
      expect(refused.status, email).toBe(400);
      expect(refused.body, email).toEqual({ error: expect.stringMatching(/^email: /), code: 'VALIDATION_ERROR' });
    }
    expect((await app.request('POST', '/api/suppressions', { key: apiKey, body: {} })).body.error).toMatch(/^email: /);
    expect((await app.request('POST', '/api/suppressions', { key: apiKey, body: { email: 'a@example.com', note: 'x' } })).body).toEqual({
      error: expect.stringMatching(/note/),
      code: 'VALIDATION_ERROR',
    });
    expect((await list(apiKey)).body.data).toEqual([]);
  });

  it('normalises an IDN domain to punycode, so every spelling is one entry the send path sees', async () => {
    const { apiKey, organizationId } = await org();
    const created = await add(apiKey, 'Ada@Bücher.DE');
    expect(created.body.email).toBe('ada@xn--bcher-kva.de');
    expect((await add(apiKey, 'ada@xn--bcher-kva.de')).body.id).toBe(created.body.id);
    expect(await suppressedAmong(deps().db, deps().encryptionKey, organizationId, ['ADA@bücher.de', 'other@bücher.de'])).toEqual(new Set(['ADA@bücher.de']));
  });
});

describe('POST /suppressions/batch', () => {
  it('adds valid rows in one go and reports invalid ones, repeats and entries already there', async () => {
    const { apiKey, organizationId } = await org();
    await add(apiKey, 'old@example.com');
    const answer = await app.request('POST', '/api/suppressions/batch', {
      key: apiKey,
      body: { emails: ['new1@example.com', 'NEW1@Example.com', 'old@example.com', 'nope', 'x@bücher.de', 'Ada <ada@example.com>', 'new2@example.com', 'new2@example.com', ''] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      added: 3,
      alreadySuppressed: 1,
      invalid: [
        { email: 'nope', error: expect.stringMatching(/not a valid email address/) },
        { email: 'Ada <ada@example.com>', error: expect.stringMatching(/bare address/) },
        { email: '', error: expect.stringMatching(/empty/) },
      ],
    });
    const rows = await deps().db.select().from(suppressions).where(eq(suppressions.organizationId, organizationId));
    expect(rows.map((row) => row.email).sort()).toEqual(['new1@example.com', 'new2@example.com', 'old@example.com', 'x@xn--bcher-kva.de']);
    expect(rows.every((row) => row.reason === 'manual')).toBe(true);
    // A reason for the whole batch; the entry already there keeps its own.
    const unsubscribes = await app.request('POST', '/api/suppressions/batch', { key: apiKey, body: { emails: ['old@example.com', 'gone@example.com'], reason: 'unsubscribe' } });
    expect(unsubscribes.body).toEqual({ added: 1, alreadySuppressed: 1, invalid: [] });
    expect(emailsOf(await list(apiKey, '?reason=unsubscribe'))).toEqual(['gone@example.com']);
    const allInvalid = await app.request('POST', '/api/suppressions/batch', { key: apiKey, body: { emails: ['a', 'b'] } });
    expect(allInvalid.body).toMatchObject({ added: 0, alreadySuppressed: 0, invalid: [{ email: 'a' }, { email: 'b' }] });
  });

  it('takes 1,000 addresses and refuses 1,001, an empty list and items that are not strings', async () => {
    const { apiKey } = await org();
    const emails = (n: number) => Array.from({ length: n }, (_, i) => `bulk${i}@example.com`);
    const thousand = await app.request('POST', '/api/suppressions/batch', { key: apiKey, body: { emails: emails(1_000) } });
    expect(thousand.body).toEqual({ added: 1_000, alreadySuppressed: 0, invalid: [] });
    const tooMany = await app.request('POST', '/api/suppressions/batch', { key: apiKey, body: { emails: emails(1_001) } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ error: 'emails: at most 1000 addresses per request', code: 'VALIDATION_ERROR' });
    expect((await app.request('POST', '/api/suppressions/batch', { key: apiKey, body: { emails: [] } })).body.error).toMatch(/^emails: /);
    expect((await app.request('POST', '/api/suppressions/batch', { key: apiKey, body: { emails: ['a@example.com', 5] } })).body.error).toMatch(/^emails\.1: /);
    expect((await app.request('POST', '/api/suppressions/batch', { key: apiKey, body: { emails: ['a@example.com'], reason: 'bounce' } })).status).toBe(400);
    expect((await list(apiKey, '?limit=1000')).body.data).toHaveLength(1_000);
  });
});

describe('GET /suppressions/export', () => {
  it('downloads the whole list as CSV, newest first, with the download headers', async () => {
    const { apiKey, organizationId } = await org();
    const other = await org('Other');
    await add(other.apiKey, 'theirs@example.com');
    await add(apiKey, 'first@example.com');
    await suppressAddress(deps().db, deps(), { organizationId, email: 'bounced@example.com', reason: 'bounce', emailId: newId() });
    app.clock.advance(1_000);
    await add(apiKey, '"a,b"@example.com', 'unsubscribe');
    const response = await app.request('GET', '/api/suppressions/export', { key: apiKey });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="suppressions.csv"');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const at = (ms: number) => new Date(app.clock.now().getTime() - ms).toISOString();
    expect(parseCsv(response.text)).toEqual([
      ['email', 'reason', 'created_at'],
      ['"a,b"@example.com', 'unsubscribe', at(0)],
      ['bounced@example.com', 'bounce', at(1_000)],
      ['first@example.com', 'manual', at(1_000)],
    ]);
    // An empty list is the header line alone.
    const empty = await org('Empty');
    expect((await app.request('GET', '/api/suppressions/export', { key: empty.apiKey })).text).toBe('email,reason,created_at\r\n');
  });

  it('escapes cells a spreadsheet would run as formulas', async () => {
    const { apiKey } = await org();
    // The parser of sends takes these: =, + and - are atext.
    for (const email of ['=cmd@example.com', '+1@example.com', '-2@example.com', 'safe@example.com']) expect((await add(apiKey, email)).status, email).toBe(200);
    const rows = parseCsv((await app.request('GET', '/api/suppressions/export', { key: apiKey })).text).slice(1);
    expect(rows.map((row) => row[0])).toEqual(["safe@example.com", "'-2@example.com", "'+1@example.com", "'=cmd@example.com"]);
    // The rest of the set, on the stringifier the export uses: @, tab and CR cannot start an address.
    const cells = [
      ['=SUM(A1)', '+1', '-1'],
      ['@x', '\tx', '\rx'],
      ['ok', "'=already", '=a,b'],
      ['\uFF1Dfull', 'a\nb', '-'],
    ];
    const text = stringify(cells, CSV_OPTIONS);
    expect(parseCsv(text)).toEqual([
      ['email', 'reason', 'created_at'],
      ["'=SUM(A1)", "'+1", "'-1"],
      ["'@x", "'\tx", "'\rx"],
      ['ok', "'=already", "'=a,b"],
      ["'\uFF1Dfull", 'a\nb', "'-"],
    ]);
    expect(text).toContain('"\'\rx"');
  });

  it('streams 20,000 entries, reading the database a chunk at a time as the reader takes them', async () => {
    const { apiKey, organizationId } = await org();
    await insertMany(organizationId, 20_000);
    const other = await org('Other');
    await insertMany(other.organizationId, 10, (i) => `other${i}@example.com`);

    // Over HTTP: every entry, once, newest first.
    const response = await app.request('GET', '/api/suppressions/export', { key: apiKey });
    const lines = response.text.split('\r\n');
    expect(lines[0]).toBe('email,reason,created_at');
    expect(lines).toHaveLength(20_002);
    expect(lines[1]).toMatch(/^user19999@example\.com,manual,/);
    expect(lines[20_000]).toMatch(/^user0@example\.com,manual,/);
    expect(new Set(lines.slice(1, -1).map((line) => line.split(',')[0])).size).toBe(20_000);

    // The stream itself: queries counted as a paused reader takes the first bytes, then the rest.
    let reads = 0;
    const db = new Proxy(deps().db, {
      get(target, property, receiver) {
        if (property === 'select') reads += 1;
        return Reflect.get(target, property, receiver);
      },
    });
    const csv = await exportSuppressions({ db }, principalOf(organizationId), { chunkRows: 1_000 });
    expect(reads).toBe(1);
    const chunks = csv[Symbol.asyncIterator]();
    const head = await chunks.next();
    expect(String(head.value)).toMatch(/^email,reason,created_at\r\nuser19999@example\.com/);
    // Give the stream every chance to run ahead: it may fill its buffers, not read the whole list.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reads).toBeLessThanOrEqual(2);
    let text = String(head.value);
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) text += String(next.value);
    // 20 full chunks and the empty read that ends it.
    expect(reads).toBe(21);
    expect(text).toBe(response.text);
  });

  it('stops reading when the client goes away', async () => {
    const { organizationId } = await org();
    await insertMany(organizationId, 5_000);
    let reads = 0;
    const db = new Proxy(deps().db, {
      get(target, property, receiver) {
        if (property === 'select') reads += 1;
        return Reflect.get(target, property, receiver);
      },
    });
    const csv = await exportSuppressions({ db }, principalOf(organizationId), { chunkRows: 100 });
    for await (const chunk of csv) {
      expect(String(chunk)).toMatch(/^email,/);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(csv.destroyed).toBe(true);
    expect(reads).toBeLessThan(5);
  });
});

describe('GET /suppressions/{id}', () => {
  it('answers an entry by id or by URL-encoded address (any spelling), and 404s when neither matches', async () => {
    const { apiKey } = await org();
    const entry = (await add(apiKey, 'Two+tag@Bücher.de')).body;
    const byId = await app.request('GET', `/api/suppressions/${entry.id}`, { key: apiKey });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(entry);
    expect((await app.request('GET', `/api/suppressions/${encodeURIComponent('TWO+tag@bücher.de')}`, { key: apiKey })).body).toEqual(entry);
    expect((await app.request('GET', '/api/suppressions/nobody%40example.com', { key: apiKey })).body).toEqual({ error: 'Suppression not found', code: 'NOT_FOUND' });
    expect((await app.request('GET', `/api/suppressions/${newId()}`, { key: apiKey })).status).toBe(404);
    expect((await app.request('GET', '/api/suppressions/nope', { key: apiKey })).body).toEqual({ error: expect.stringMatching(/^id: /), code: 'VALIDATION_ERROR' });
    // The literal route stays the export.
    expect((await app.request('GET', '/api/suppressions/export', { key: apiKey })).text).toMatch(/^email,reason,created_at\r\n/);
  });

  it("finds an erased address's entry by the address, never by its id", async () => {
    const { apiKey, organizationId } = await org();
    const entry = (await add(apiKey, 'erased@example.com')).body;
    await deps()
      .db.update(suppressions)
      .set({ email: null, emailHash: suppressionHash(deps().encryptionKey, organizationId, 'erased@example.com') })
      .where(eq(suppressions.id, entry.id));
    expect((await app.request('GET', '/api/suppressions/erased%40example.com', { key: apiKey })).body).toEqual({ ...entry, email: 'erased@example.com' });
    expect((await app.request('GET', `/api/suppressions/${entry.id}`, { key: apiKey })).status).toBe(404);
  });
});

describe('DELETE /suppressions/{id}', () => {
  it('removes an entry by id or by URL-encoded address (any spelling), and 404s when neither matches', async () => {
    const { apiKey, organizationId } = await org();
    const byId = (await add(apiKey, 'one@example.com')).body;
    await add(apiKey, 'Two+tag@Bücher.de');
    await add(apiKey, 'three@example.com');
    const removed = await app.request('DELETE', `/api/suppressions/${byId.id}`, { key: apiKey });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ message: 'Suppression deleted' });
    expect((await app.request('DELETE', `/api/suppressions/${byId.id}`, { key: apiKey })).body).toEqual({ error: 'Suppression not found', code: 'NOT_FOUND' });
    expect((await app.request('DELETE', `/api/suppressions/${encodeURIComponent('TWO+tag@bücher.de')}`, { key: apiKey })).status).toBe(200);
    expect((await app.request('DELETE', '/api/suppressions/three%40example.com', { key: apiKey })).status).toBe(200);
    expect((await app.request('DELETE', '/api/suppressions/three@example.com', { key: apiKey })).status).toBe(404);
    // Decoded once: a % of the address arrives as %25.
    await add(apiKey, 'per%cent@example.com');
    expect((await app.request('DELETE', `/api/suppressions/${encodeURIComponent('per%cent@example.com')}`, { key: apiKey })).status).toBe(200);
    expect((await app.request('DELETE', `/api/suppressions/${newId()}`, { key: apiKey })).status).toBe(404);
    expect(await deps().db.select().from(suppressions).where(eq(suppressions.organizationId, organizationId))).toEqual([]);
  });

  it('answers 400 naming id for a value that is neither an id nor an address', async () => {
    const { apiKey } = await org();
    for (const value of ['nope', '12345', 'batch', 'export', encodeURIComponent('Ada <ada@example.com>'), '%zz']) {
      const refused = await app.request('DELETE', `/api/suppressions/${value}`, { key: apiKey });
      expect(refused.status, value).toBe(400);
      expect(refused.body, value).toEqual({ error: expect.stringMatching(/^id: /), code: 'VALIDATION_ERROR' });
    }
  });
});

describe('reach', () => {
  it("answers another organization's entry as not found, by id or address, and never lists or exports it", async () => {
    const owner = await org('Owner');
    const intruder = await org('Intruder');
    const entry = (await add(owner.apiKey, 'private@example.com')).body;
    expect((await app.request('DELETE', `/api/suppressions/${entry.id}`, { key: intruder.apiKey })).status).toBe(404);
    expect((await app.request('DELETE', '/api/suppressions/private%40example.com', { key: intruder.apiKey })).status).toBe(404);
    expect((await list(intruder.apiKey)).body.data).toEqual([]);
    expect((await list(intruder.apiKey, '?search=private')).body.data).toEqual([]);
    expect((await app.request('GET', '/api/suppressions/export', { key: intruder.apiKey })).text).toBe('email,reason,created_at\r\n');
    // The intruder may suppress the same address on its own list: a separate entry.
    const own = await add(intruder.apiKey, 'private@example.com');
    expect(own.body.id).not.toBe(entry.id);
    const [row] = await deps().db.select().from(suppressions).where(and(eq(suppressions.id, entry.id), eq(suppressions.organizationId, owner.organizationId)));
    expect(row).toBeDefined();
  });

  it('lets a test key read the list and export it, never change it', async () => {
    const { apiKey, organizationId } = await org();
    const entry = (await add(apiKey, 'kept@example.com')).body;
    const testKey = await keyFor(app, organizationId, 'full_access', 'test');
    expect(emailsOf(await list(testKey))).toEqual(['kept@example.com']);
    expect((await app.request('GET', '/api/suppressions/export', { key: testKey })).text).toMatch(/kept@example\.com/);
    for (const [method, path, body] of [
      ['POST', '/api/suppressions', { email: 'x@example.com' }],
      ['POST', '/api/suppressions/batch', { emails: ['x@example.com'] }],
      ['DELETE', `/api/suppressions/${entry.id}`, undefined],
      ['DELETE', '/api/suppressions/kept%40example.com', undefined],
    ] as const) {
      const answer = await app.request(method, path, { key: testKey, body });
      expect(answer.body, `${method} ${path}`).toEqual({ error: 'A test key cannot change live state', code: 'FORBIDDEN' });
    }
    expect(emailsOf(await list(apiKey))).toEqual(['kept@example.com']);
  });

  it('refuses a sending_access key on every suppression route', async () => {
    const { organizationId } = await org();
    const key = await keyFor(app, organizationId, 'sending_access', 'live');
    for (const [method, path, body] of [
      ['GET', '/api/suppressions', undefined],
      ['GET', '/api/suppressions/export', undefined],
      ['POST', '/api/suppressions', { email: 'x@example.com' }],
      ['POST', '/api/suppressions/batch', { emails: ['x@example.com'] }],
      ['DELETE', '/api/suppressions/x%40example.com', undefined],
    ] as const) {
      const answer = await app.request(method, path, { key, body });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.code).toBe('FORBIDDEN');
    }
    expect((await app.request('GET', '/api/suppressions/export')).status).toBe(401);
  });
});
