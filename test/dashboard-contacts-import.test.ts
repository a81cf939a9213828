import { describe, expect, it } from 'vitest';
import { chunk } from '@/app/(dashboard)/audiences/[id]/contact-batches';
import { guessMapping, looksLikeHeader } from '@/app/(dashboard)/audiences/[id]/import/column-guess';
import { EMPTY_MAPPING, mapRecords, type ColumnMapping, type ImportRow } from '@/app/(dashboard)/audiences/[id]/import/contact-rows';
import { parseSubscription } from '@/app/(dashboard)/audiences/[id]/import/subscription-cell';
import { firstSkipped, rowIssues, uploadContacts, type BatchAnswer, type SendBatch } from '@/app/(dashboard)/audiences/[id]/import/contact-upload';
import { detectDelimiter, parseCsv } from '@/app/lib/csv';

/** A failed tRPC call as the dashboard's client sees it: the server's envelope under `data`. */
const failure = (status: number, code: string, error: string) => Object.assign(new Error(error), { data: { envelope: { status, code, error } } });

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

const rowsOf = (count: number, firstLine = 2): ImportRow[] => Array.from({ length: count }, (_, index) => ({ row: firstLine + index, contact: { email: `c${index}@example.com` } }));

/** A fake batchContacts: every row created unless `answer` says otherwise; records what it was sent. */
function fakeServer(answer: (contacts: Parameters<SendBatch>[0], call: number) => BatchAnswer | Error = (contacts) => ({ created: contacts.length, updated: 0, unchanged: 0, errors: [] })) {
  const calls: Array<Parameters<SendBatch>[0]> = [];
  const send: SendBatch = async (contacts) => {
    calls.push(contacts);
    const result = answer(contacts, calls.length);
    if (result instanceof Error) throw result;
    return result;
  };
  return { send, calls };
}

describe('the upload', () => {
  it('sends 1,000 rows at a time, one batch after the other, and adds up the answers', async () => {
    const { send, calls } = fakeServer((contacts, call) => ({ created: call === 1 ? contacts.length - 1 : contacts.length, updated: call === 1 ? 1 : 0, unchanged: 0, errors: [] }));
    const progress: Array<[number, number]> = [];
    const outcome = await uploadContacts(rowsOf(2_500), send, { onProgress: (p) => progress.push([p.rowsDone, p.batchesDone]) });
    expect(calls.map((contacts) => contacts.length)).toEqual([1_000, 1_000, 500]);
    expect(calls[1]![0]).toEqual({ email: 'c1000@example.com' });
    expect(progress).toEqual([
      [0, 0],
      [1_000, 1],
      [2_000, 2],
      [2_500, 3],
    ]);
    expect(outcome).toMatchObject({ rowsTotal: 2_500, rowsDone: 2_500, batchesTotal: 3, batchesDone: 3, created: 2_499, updated: 1, unchanged: 0, merged: 0, skipped: [], failure: null, cancelled: false, rowsLeft: 0 });
  });

  it("lists the rows the server refused by their line in the file, and counts duplicates it merged", async () => {
    const { send } = fakeServer((contacts) => ({ created: contacts.length - 3, updated: 0, unchanged: 0, errors: [{ index: 1, email: 'c1@example.com', error: '"c1@example.com": no' }] }));
    const outcome = await uploadContacts(rowsOf(5, 10), send);
    expect(outcome.skipped).toEqual([{ row: 11, email: 'c1@example.com', error: '"c1@example.com": no' }]);
    expect(outcome).toMatchObject({ created: 2, merged: 2, rowsDone: 5 });
  });

  it('stops at a batch refused whole (the contact cap), with its error and the rows left', async () => {
    const refusal = failure(403, 'PLAN_LIMIT_EXCEEDED', 'The Free plan stores 1,000 contacts across all audiences; 0 slots are left and this request adds 1,000. Nothing was stored; delete contacts or upgrade');
    const { send, calls } = fakeServer((contacts, call) => (call === 2 ? refusal : { created: contacts.length, updated: 0, unchanged: 0, errors: [] }));
    const outcome = await uploadContacts(rowsOf(2_500), send);
    expect(calls).toHaveLength(2);
    expect(outcome.failure).toBe(refusal);
    expect(outcome).toMatchObject({ created: 1_000, rowsDone: 1_000, batchesDone: 1, rowsLeft: 1_500, cancelled: false });
  });

  it('skips the rows a validation error names and sends the rest of the batch again', async () => {
    const { send, calls } = fakeServer((contacts, call) =>
      call === 1 ? failure(400, 'VALIDATION_ERROR', 'contacts.1.name: must be at most 200 characters; contacts.3.email: must be at most 320 characters; contacts.3.name: too long') : { created: contacts.length, updated: 0, unchanged: 0, errors: [] },
    );
    const outcome = await uploadContacts(rowsOf(5), send);
    expect(calls.map((contacts) => contacts.map((contact) => contact.email))).toEqual([
      ['c0@example.com', 'c1@example.com', 'c2@example.com', 'c3@example.com', 'c4@example.com'],
      ['c0@example.com', 'c2@example.com', 'c4@example.com'],
    ]);
    expect(outcome.skipped).toEqual([
      { row: 3, email: 'c1@example.com', error: 'name: must be at most 200 characters' },
      { row: 5, email: 'c3@example.com', error: 'email: must be at most 320 characters; name: too long' },
    ]);
    expect(outcome).toMatchObject({ created: 3, rowsDone: 5, batchesDone: 1, batchesTotal: 1, failure: null });
  });

  it('stops at a validation error that names no row', async () => {
    const refusal = failure(400, 'VALIDATION_ERROR', 'contacts: give at least one contact');
    const outcome = await uploadContacts(rowsOf(3), fakeServer(() => refusal).send);
    expect(outcome.failure).toBe(refusal);
    expect(outcome.rowsLeft).toBe(3);
  });

  it('sends a batch too large for one request again in halves', async () => {
    const { send, calls } = fakeServer((contacts) => (contacts.length > 300 ? failure(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large') : { created: contacts.length, updated: 0, unchanged: 0, errors: [] }));
    const outcome = await uploadContacts(rowsOf(1_000), send);
    expect(calls.map((contacts) => contacts.length)).toEqual([1_000, 500, 250, 250, 500, 250, 250]);
    expect(outcome).toMatchObject({ created: 1_000, rowsDone: 1_000, failure: null });
    expect(outcome.batchesDone).toBe(outcome.batchesTotal);
  });

  it('stops between batches when asked, without sending the next one', async () => {
    let stop = false;
    const { send, calls } = fakeServer((contacts) => {
      stop = true;
      return { created: contacts.length, updated: 0, unchanged: 0, errors: [] };
    });
    const outcome = await uploadContacts(rowsOf(2_500), send, { shouldStop: () => stop });
    expect(calls).toHaveLength(1);
    expect(outcome).toMatchObject({ cancelled: true, failure: null, rowsDone: 1_000, rowsLeft: 1_500 });
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

  it('reads the rows out of a validation message', () => {
    expect(rowIssues('contacts.0.name: a; b; contacts.12.email: c')).toEqual([
      { index: 0, error: 'name: a; b' },
      { index: 12, error: 'email: c' },
    ]);
    expect(rowIssues('contacts: give at least one contact')).toEqual([]);
  });
});
