import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunk } from '@/app/(dashboard)/audiences/[id]/contact-batches';
import { guessMapping, looksLikeHeader } from '@/app/(dashboard)/audiences/[id]/import/column-guess';
import { EMPTY_MAPPING, firstSkipped, mapRecords, type ColumnMapping } from '@/app/(dashboard)/audiences/[id]/import/contact-rows';
import { columnMapOf, failedRows, failureOf, isFinished, progressOf, startImport } from '@/app/(dashboard)/audiences/[id]/import/import-job';
import { parseSubscription } from '@/app/(dashboard)/audiences/[id]/import/subscription-cell';
import { POST } from '@/app/(dashboard)/contacts/imports/upload/route';
import { detectDelimiter, parseCsv } from '@/app/lib/csv';
import { setRuntime } from '@/server/runtime-registry';
import { sweepContactImports } from '@/server/services/contact-imports/run';
import { DASHBOARD_TEST_MODE_REFUSAL } from '@/server/vocabulary/test-mode';
import { startTestApp, type TestApp } from './support/app';
import { dashboardCall, makeMemberOf, signUpPerson } from './support/dashboard-session';

const mapping = (columns: Partial<ColumnMapping>): ColumnMapping => ({ ...EMPTY_MAPPING, ...columns });

const fields = (text: string) => parseCsv(text).records.map((record) => record.fields);

describe('the CSV parser', () => {
  it('reads plain, quoted and empty fields', () => {
    expect(fields('email,name\nada@example.com,Ada\nbob@example.com,\n')).toEqual([
      ['email', 'name'],
      ['ada@example.com', 'Ada'],
      ['bob@example.com', ''],
    ]);
    expect(fields('a,"b, c","",d')).toEqual([['a', 'b, c', '', 'd']]);
  });

  it('unescapes doubled quotes and keeps line breaks inside quotes', () => {
    expect(fields('"say ""hi""",x\n"two\r\nlines",y')).toEqual([
      ['say "hi"', 'x'],
      ['two\nlines', 'y'],
    ]);
  });

  it('ends records at CRLF, LF or CR, with or without a final line break', () => {
    const expected = [
      ['a', 'b'],
      ['c', 'd'],
    ];
    expect(fields('a,b\r\nc,d\r\n')).toEqual(expected);
    expect(fields('a,b\nc,d')).toEqual(expected);
    expect(fields('a,b\rc,d\r')).toEqual(expected);
  });

  it('drops a byte-order mark, skips blank lines and numbers records by the line they start on', () => {
    const parsed = parseCsv('\uFEFFemail\r\n\r\n"multi\nline"\nlast@example.com\n\n');
    expect(parsed.records).toEqual([
      { fields: ['email'], line: 1 },
      { fields: ['multi\nline'], line: 3 },
      { fields: ['last@example.com'], line: 5 },
    ]);
    expect(parsed.unterminatedQuote).toBe(false);
    // A quoted empty value is a record, not a blank line.
    expect(fields('a\n""\nb')).toEqual([['a'], [''], ['b']]);
  });

  it('detects a comma, a semicolon or a tab, ignoring quoted text', () => {
    expect(detectDelimiter('email,name\nx;y;z')).toBe(',');
    expect(detectDelimiter('\uFEFFemail;name;subscribed\r\na,b;c')).toBe(';');
    expect(detectDelimiter('"a;b;c",d\n')).toBe(',');
    expect(detectDelimiter('email\tname')).toBe('\t');
    expect(detectDelimiter('email')).toBe(',');
    expect(parseCsv('email;name\n"ada@example.com";"Lovelace; Ada"').records.map((r) => r.fields)).toEqual([
      ['email', 'name'],
      ['ada@example.com', 'Lovelace; Ada'],
    ]);
    expect(parseCsv('a;b', { delimiter: ',' }).records[0]!.fields).toEqual(['a;b']);
  });

  it('is lenient with files in the wild: spaces before a quote, stray quotes, an unclosed quote', () => {
    expect(fields('a, "b, c" ,d')).toEqual([['a', 'b, c ', 'd']]);
    expect(fields('O"Brien,x')).toEqual([['O"Brien', 'x']]);
    const open = parseCsv('a,"b\nc,d');
    expect(open.unterminatedQuote).toBe(true);
    expect(open.records).toEqual([{ fields: ['a', 'b\nc,d'], line: 1 }]);
    expect(parseCsv('').records).toEqual([]);
  });
});

describe('columns and rows', () => {
  it('guesses the columns from the header, any case and spelling', () => {
    expect(guessMapping(['Email', 'Name', 'Subscribed'])).toEqual(mapping({ email: 0, name: 1, subscription: 2 }));
    expect(guessMapping(['First name', 'E-Mail Address', 'Opted_in', 'City'])).toEqual(mapping({ email: 1, firstName: 0, subscription: 2 }));
    expect(guessMapping(['Full Name', 'Work mail'])).toEqual(mapping({ email: 1, name: 0 }));
    expect(guessMapping(['id', 'contact'])).toEqual(EMPTY_MAPPING);
  });

  it("reads Resend's export: first and last names, and an unsubscribed column whose yes is an opt-out", () => {
    expect(guessMapping(['id', 'email', 'first_name', 'last_name', 'created_at', 'unsubscribed'])).toEqual(
      mapping({ email: 1, firstName: 2, lastName: 3, subscription: 5, subscriptionColumn: 'unsubscribed' }),
    );
    expect(guessMapping(['Surname', 'Given name', 'Opt-out', 'Mail'])).toEqual(mapping({ email: 3, firstName: 1, lastName: 0, subscription: 2, subscriptionColumn: 'unsubscribed' }));
    // A column that says who is subscribed wins over one that says who is not.
    expect(guessMapping(['email', 'unsubscribed', 'status'])).toEqual(mapping({ email: 0, subscription: 2 }));
  });

  it('takes a first row with an address for data, not a header', () => {
    expect(looksLikeHeader(['email', 'name'])).toBe(true);
    expect(looksLikeHeader(['ada@example.com', 'Ada'])).toBe(false);
  });

  it('reads a subscription cell as yes, no, unset or neither', () => {
    for (const yes of ['true', 'YES', ' y ', '1', 'Subscribed', 'opted-in']) expect(parseSubscription(yes)).toBe(true);
    for (const no of ['false', 'No', 'n', '0', 'unsubscribed', 'Opted out']) expect(parseSubscription(no)).toBe(false);
    expect(parseSubscription('  ')).toBeUndefined();
    expect(parseSubscription('maybe')).toBeNull();
  });

  it('reads a yes in an unsubscribed column as an opt-out, and a named state as it says', () => {
    for (const optOut of ['true', 'Yes', '1', 'unsubscribed', 'opted out']) expect(parseSubscription(optOut, 'unsubscribed')).toBe(false);
    for (const stays of ['false', 'no', '0', 'subscribed']) expect(parseSubscription(stays, 'unsubscribed')).toBe(true);
    expect(parseSubscription('', 'unsubscribed')).toBeUndefined();
    expect(parseSubscription('later', 'unsubscribed')).toBeNull();
  });

  it('maps records to contacts and skips, with reasons, wrong column counts, empty addresses and unreadable subscriptions', () => {
    const { records } = parseCsv('email,name,subscribed\n ada@example.com , Ada ,yes\nbob@example.com,,\n,Nobody,yes\ncyd@example.com,Cyd\ndee@example.com,Dee,perhaps\neve@example.com,Eve,no,extra\n');
    const { rows, skipped } = mapRecords(records.slice(1), 3, mapping({ email: 0, name: 1, subscription: 2 }));
    expect(rows).toEqual([
      { row: 2, contact: { email: 'ada@example.com', name: 'Ada', subscribed: true } },
      { row: 3, contact: { email: 'bob@example.com' } },
    ]);
    expect(skipped).toEqual([
      { row: 4, email: '', error: 'no email address' },
      { row: 5, email: 'cyd@example.com', error: 'has 2 columns instead of 3' },
      { row: 6, email: 'dee@example.com', error: 'subscribed: "perhaps" is not yes or no (true/false, 1/0, subscribed/unsubscribed)' },
      { row: 7, email: 'eve@example.com', error: 'has 4 columns instead of 3' },
    ]);
    // Without the optional columns only the address is sent.
    expect(mapRecords(records.slice(1, 2), 3, mapping({ email: 0 })).rows).toEqual([{ row: 2, contact: { email: 'ada@example.com' } }]);
  });

  it('joins first and last names where the name cell is empty, and reads an unsubscribed column the other way round', () => {
    const { records } = parseCsv('email,first_name,last_name,name,unsubscribed\nada@example.com,Ada,Lovelace,,false\nbob@example.com,Bob,,,true\ncyd@example.com,,Smith,Cyd S.,\ndee@example.com,,,,1\n');
    const { rows, skipped } = mapRecords(records.slice(1), 5, mapping({ email: 0, firstName: 1, lastName: 2, name: 3, subscription: 4, subscriptionColumn: 'unsubscribed' }));
    expect(skipped).toEqual([]);
    expect(rows.map((row) => row.contact)).toEqual([
      { email: 'ada@example.com', name: 'Ada Lovelace', subscribed: true },
      { email: 'bob@example.com', name: 'Bob', subscribed: false },
      { email: 'cyd@example.com', name: 'Cyd S.' },
      { email: 'dee@example.com', subscribed: false },
    ]);
  });
});

describe('batches', () => {
  it('splits into runs of 1,000 by default, in order', () => {
    const items = Array.from({ length: 2_500 }, (_, index) => index);
    const batches = chunk(items);
    expect(batches.map((batch) => batch.length)).toEqual([1_000, 1_000, 500]);
    expect(batches.flat()).toEqual(items);
    expect(chunk([], 10)).toEqual([]);
    expect(chunk([1, 2, 3], 3)).toEqual([[1, 2, 3]]);
    expect(() => chunk([1], 0)).toThrow(RangeError);
  });
});

/** A failed request as the dashboard's client sees it: the server's envelope under `data`. */
const refusalOf = (error: unknown) => (error as { data?: { envelope?: unknown } }).data?.envelope;

describe('the import', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
    // The dashboard's route handlers read the process's runtime (server/runtime-registry.ts).
    setRuntime(app.runtime);
  });
  afterAll(async () => {
    setRuntime(null);
    await app.close();
  });

  /** The dashboard's upload, its route handler answering as Next would hand it the request, with the person's cookie. */
  const sendAs =
    (cookie: string): typeof fetch =>
    (input, init) =>
      POST(new Request(new URL(String(input), 'http://127.0.0.1:3000'), { ...init, headers: { ...(init?.headers as Record<string, string>), cookie } }));
  const file = (text: string) => new Blob([text], { type: 'text/csv' });

  it('names the columns by position, the subscription column as the audience\'s', () => {
    expect(columnMapOf(mapping({ email: 0, name: 2, subscription: 3, subscriptionColumn: 'unsubscribed' }))).toEqual({
      email: 1,
      name: 3,
      first_name: undefined,
      last_name: undefined,
      subscription: { column: 4, lists: 'unsubscribed' },
    });
    expect(JSON.parse(JSON.stringify(columnMapOf(mapping({ email: 1, firstName: 0 }))))).toEqual({ email: 2, first_name: 1 });
  });

  it('uploads the file as picked into the audience, and the import reads it as the preview did', async () => {
    const person = await signUpPerson(app, 'ada@acme.test');
    const audience = await dashboardCall(app, person.cookie, 'mutation', 'audiences.create', { name: 'News' });
    await dashboardCall(app, person.cookie, 'mutation', 'audiences.batchContacts', { id: audience.data.id, contacts: [{ email: 'left@example.net', subscribed: false }] });
    const text = 'Surname;Given name;Mail;Opt-out\r\nLovelace;Ada;ada@example.net;no\r\nHopper;Grace;grace@example.net;yes\r\nLeft;Lea;left@example.net;no\r\n;;;\r\nshort@example.net\r\n';
    const { records } = parseCsv(text);
    const chosen = guessMapping(records[0]!.fields);
    expect(chosen).toEqual(mapping({ email: 2, firstName: 1, lastName: 0, subscription: 3, subscriptionColumn: 'unsubscribed' }));
    const preview = mapRecords(records.slice(1), 4, chosen);
    const id = await startImport({ file: file(text), fileName: 'people.csv', mapping: chosen, hasHeader: true, audienceId: audience.data.id }, sendAs(person.cookie));
    const queued = await dashboardCall(app, person.cookie, 'query', 'contactImports.get', { id });
    expect(queued.data).toMatchObject({ status: 'queued', fileName: 'people.csv', segments: [audience.data.id], onConflict: 'upsert', confirmedConsent: false });
    expect(progressOf(queued.data)).toEqual({ total: 5, done: 0, batches: 1, batch: 1 });
    await sweepContactImports(app.runtime.deps);
    const done = (await dashboardCall(app, person.cookie, 'query', 'contactImports.get', { id })).data;
    expect(isFinished(done)).toBe(true);
    expect(done.counts).toEqual({ total: 5, created: 2, updated: 1, skipped: 0, failed: 2 });
    // The rows the preview said it would skip are the ones the import left out, with the same reasons.
    expect(failedRows(done)).toEqual(preview.skipped);
    expect(failureOf(done)).toBeNull();
    const members = await dashboardCall(app, person.cookie, 'query', 'audiences.listContacts', { id: audience.data.id, limit: 10 });
    expect(Object.fromEntries((members.data.data as Array<{ email: string; name: string | null; subscribed: boolean }>).map((m) => [m.email, [m.name, m.subscribed]]))).toEqual({
      'ada@example.net': ['Ada Lovelace', true],
      'grace@example.net': ['Grace Hopper', false],
      // An opt-out stays, whatever the file says.
      'left@example.net': ['Lea Left', false],
    });
  });

  it("declares the file's consent confirmed when the member ticks it: the import's read says so, and the ledger names the import and the member", async () => {
    const person = await signUpPerson(app, 'grace@acme.test');
    const audience = await dashboardCall(app, person.cookie, 'mutation', 'audiences.create', { name: 'Confirmed' });
    const input = { file: file('email\nada@example.net\n'), fileName: 'confirmed.csv', mapping: mapping({ email: 0 }), hasHeader: true, audienceId: audience.data.id, confirmedConsent: true };
    const id = await startImport(input, sendAs(person.cookie));
    expect((await dashboardCall(app, person.cookie, 'query', 'contactImports.get', { id })).data).toMatchObject({ status: 'queued', confirmedConsent: true });
    await sweepContactImports(app.runtime.deps);
    expect((await dashboardCall(app, person.cookie, 'query', 'contactImports.list', {})).data.data).toEqual([expect.objectContaining({ id, status: 'completed', confirmedConsent: true })]);
    const history = await dashboardCall(app, person.cookie, 'query', 'contactConsent.list', { idOrEmail: 'ada@example.net' });
    expect(history.data.data.filter((entry: { action: string }) => entry.action === 'confirmed')).toEqual([expect.objectContaining({ via: 'import', importId: id, userId: person.userId })]);
  });

  it('refuses an upload without the dashboard\'s header, in test mode, and to a role that may not add contacts', async () => {
    const owner = await signUpPerson(app, 'owner@acme.test');
    const audience = await dashboardCall(app, owner.cookie, 'mutation', 'audiences.create', { name: 'News' });
    const input = { file: file('email\nada@example.net\n'), fileName: 'a.csv', mapping: mapping({ email: 0 }), hasHeader: true, audienceId: audience.data.id };
    const withoutHeader: typeof fetch = (url, init) => sendAs(owner.cookie)(url, { ...init, headers: {} });
    await expect(startImport(input, withoutHeader).catch(refusalOf)).resolves.toEqual({ status: 403, code: 'FORBIDDEN', error: 'Upload the file from the dashboard' });
    await expect(startImport(input, sendAs(`${owner.cookie}; eumail_mode=test`)).catch(refusalOf)).resolves.toMatchObject({ status: 403, code: 'FORBIDDEN', error: DASHBOARD_TEST_MODE_REFUSAL });
    const viewer = await signUpPerson(app, 'viewer@acme.test');
    await makeMemberOf(app, viewer, owner.organizationId, 'viewer');
    await expect(startImport(input, sendAs(viewer.cookie)).catch(refusalOf)).resolves.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    // The API's own route takes keys, never the cookie.
    const cookieOnly = await fetch(`${app.url}/api/contacts/imports`, { method: 'POST', headers: { cookie: owner.cookie, 'x-eumail-dashboard': '1' }, body: new FormData() });
    expect(cookieOnly.status).toBe(401);
    expect((await dashboardCall(app, owner.cookie, 'query', 'contactImports.list', {})).data).toEqual({ data: [], nextCursor: null });
  });

  it('lists skipped rows in file order, the first 100 and a count of the rest', () => {
    const skipped = Array.from({ length: 130 }, (_, index) => ({ row: 200 - index, email: `x${index}`, error: 'bad' }));
    const { shown, more } = firstSkipped(skipped);
    expect(shown).toHaveLength(100);
    expect(shown[0]!.row).toBe(71);
    expect(shown.every((entry, index) => index === 0 || shown[index - 1]!.row < entry.row)).toBe(true);
    expect(more).toBe(30);
    expect(firstSkipped([])).toEqual({ shown: [], more: 0 });
  });

  it('tells the batch under way from the counts', () => {
    const counts = (done: number, total: number) => ({ counts: { total, created: done, updated: 0, skipped: 0, failed: 0 } });
    expect(progressOf(counts(0, 2_504))).toEqual({ total: 2_504, done: 0, batches: 3, batch: 1 });
    expect(progressOf(counts(1_000, 2_504))).toEqual({ total: 2_504, done: 1_000, batches: 3, batch: 2 });
    expect(progressOf(counts(2_504, 2_504))).toEqual({ total: 2_504, done: 2_504, batches: 3, batch: 3 });
    expect(progressOf(counts(0, 0))).toEqual({ total: 0, done: 0, batches: 1, batch: 1 });
  });
});
