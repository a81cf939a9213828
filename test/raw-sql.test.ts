import { eq, getTableColumns, sql } from 'drizzle-orm';
import { boolean, integer, jsonb, PgDialect, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { column, columnNames, columnsOf, recordsetOf, perDatabase, populateRecordset, prepareSql, sqlNamed, tableName } from '@/db/raw-sql';
import { emailEvents, organizations, suppressions } from '@/db/schema';
import { newId } from '@/server/ids';
import { openTestDatabase, resetDatabase } from './support/database';

let database: Database & { drop(): Promise<void> };
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
  await database.drop();
});
beforeEach(() => resetDatabase(database));

const organization = (name: string) => ({ id: newId(), name, plan: 'free', ownerEmail: `${name}@example.com`, createdAt: new Date('2026-11-20T10:00:00Z') });

describe('names from the schema', () => {
  it('lists every column in schema order under its SQL name and type', () => {
    const names = Object.values(getTableColumns(suppressions)).map((c) => c.name);
    expect(columnsOf(suppressions).map((c) => c.name)).toEqual(names);
    expect(columnsOf(suppressions).find((c) => c.key === 'emailId')).toMatchObject({ name: 'email_id', sqlType: 'uuid' });
  });

  it('spells a rename the way Postgres reads it, quoted and qualified', () => {
    const renamed = pgTable('renamed', { someValue: text('value_now_called_this') });
    expect(new PgDialect().sqlToQuery(sql`select ${columnNames(renamed)} from ${tableName(renamed, 'r')} where ${column(renamed, 'someValue', 'r')} = 1`).sql).toBe(
      'select "value_now_called_this" from "renamed" as "r" where "r"."value_now_called_this" = 1',
    );
    expect(sqlNamed(renamed, { someValue: 'x' })).toEqual({ value_now_called_this: 'x' });
  });

});

describe('prepared statements on the real database', () => {
  const insertOrganizations = perDatabase((db) =>
    prepareSql<{ id: string; status: string }>(
      db,
      'raw_sql_test_insert_organizations',
      sql`insert into ${tableName(organizations)} (${columnNames(organizations)})
        select ${columnNames(organizations)} from ${populateRecordset(organizations, 'rows')}
        returning ${columnNames(organizations, ['id', 'status'])}`,
    ),
  );

  it('is built once per database and reused, whole rows going in under their schema names', async () => {
    expect(insertOrganizations(database.db)).toBe(insertOrganizations(database.db));
    const first = await insertOrganizations(database.db).execute({ rows: [organization('a')] });
    const second = await insertOrganizations(database.db).execute({ rows: [organization('b'), organization('c')] });
    expect([...first, ...second].map((row) => row.status)).toEqual(['active', 'active', 'active']);
  });

  it('fills plain defaults into a stored row and leaves unset columns without one null', async () => {
    const [stored] = await insertOrganizations(database.db).execute({ rows: [organization('acme')] });
    const [row] = await database.db.select().from(organizations).where(eq(organizations.id, stored!.id));
    expect(row).toMatchObject({ name: 'acme', ownerEmail: 'acme@example.com', status: 'active', rateLimitOverride: null });
  });

  it('reads a JSON recordset typed like the table it fills', async () => {
    const [org] = await insertOrganizations(database.db).execute({ rows: [organization('d')] });
    const keys = ['id', 'organizationId', 'email', 'reason', 'createdAt'] as const;
    const insert = prepareSql<{ email: string; reason: string }>(
      database.db,
      'raw_sql_test_insert_suppressions',
      sql`insert into ${tableName(suppressions)} (${columnNames(suppressions, keys)})
        select ${columnNames(suppressions, keys)} from ${recordsetOf('rows', 'r', suppressions, keys)}
        returning ${columnNames(suppressions, ['email', 'reason'])}`,
    );
    const row = sqlNamed(suppressions, { id: newId(), organizationId: org!.id, email: 'x@example.net', reason: 'manual', createdAt: new Date() });
    expect(await insert.execute({ rows: [row] })).toEqual([{ email: 'x@example.net', reason: 'manual' }]);
  });

  it('reads back every value an input row carries, whatever its characters, as the column types them', async () => {
    const awkward = pgTable('awkward', {
      id: uuid('id'),
      body: text('body'),
      list: text('list').array(),
      data: jsonb('data'),
      flag: boolean('flag'),
      count: integer('count'),
      at: timestamp('at', { withTimezone: true }),
    });
    const read = prepareSql<Record<string, unknown>>(database.db, null, sql`select * from ${recordsetOf('rows', 'r', awkward, ['id', 'body', 'list', 'data', 'flag', 'count', 'at'])}`);
    const id = newId();
    const hostile = 'a "quoted", {braced} \\back\\slash\nnew line, NULL, \u00e9t\u00e9 \u{1F4E7} <p style="x">';
    const rows = [
      sqlNamed(awkward, { id, body: hostile, list: [hostile, 'NULL', '', '{}', 'a,b'], data: { html: hostile, nested: [1, null, { x: 'y' }] }, flag: true, count: -7, at: new Date('2026-11-28T21:00:00.123Z') }),
      sqlNamed(awkward, { id: null, body: '', list: [], data: 'just a string', flag: false, count: 0, at: null }),
      {},
    ];
    expect(await read.execute({ rows })).toEqual([
      { id, body: hostile, list: [hostile, 'NULL', '', '{}', 'a,b'], data: { html: hostile, nested: [1, null, { x: 'y' }] }, flag: true, count: -7, at: expect.anything() },
      { id: null, body: '', list: [], data: 'just a string', flag: false, count: 0, at: null },
      { id: null, body: null, list: null, data: null, flag: null, count: null, at: null },
    ]);
    const [first] = await read.execute({ rows: rows.slice(0, 1) });
    expect(new Date(first!.at as string | Date).toISOString()).toBe('2026-11-28T21:00:00.123Z');
    expect(await read.execute({ rows: [] })).toEqual([]);
    await expect(read.execute({ rows: JSON.stringify(rows) })).rejects.toThrow(/takes an array of rows/);
    // Numbers, booleans and dates go unquoted; a string never does, even in a uuid column, so text
    // that holds a comma cannot become a second element and shift the rows.
    // Times repeat from row to row (remembered) and change (spelt again); lists of plain strings and
    // JSON with control characters and line separators go their quicker ways.
    const shared = new Date('2026-11-30T02:00:00.001Z');
    const timed = [shared, shared, new Date('2026-11-30T02:00:00.002Z'), shared].map((at, index) =>
      sqlNamed(awkward, { count: index, at, list: index === 1 ? ['plain', 'x y', ''] : [hostile], data: { text: 'tab\tbell\u0007 \u2028 "q" \\' } }),
    );
    const readBack = await read.execute({ rows: timed });
    expect(readBack.map((row) => new Date(row.at as string | Date).toISOString())).toEqual([
      '2026-11-30T02:00:00.001Z',
      '2026-11-30T02:00:00.001Z',
      '2026-11-30T02:00:00.002Z',
      '2026-11-30T02:00:00.001Z',
    ]);
    expect(readBack.map((row) => row.list)).toEqual([[hostile], ['plain', 'x y', ''], [hostile], [hostile]]);
    expect(readBack.every((row) => (row.data as { text: string }).text === 'tab\tbell\u0007 \u2028 "q" \\')).toBe(true);
    // JSON without a null among the rows travels as one document: each row still gets its own, in order.
    const documents = Array.from({ length: 300 }, (_, index) => sqlNamed(awkward, { count: index, data: index % 7 === 0 ? [index, hostile] : { index, html: hostile } }));
    const documentsBack = await read.execute({ rows: documents });
    expect(documentsBack.map((row) => [row.count, row.data])).toEqual(documents.map((row) => [row.count, row.data]));
    const splitting = `${newId()},${newId()}`;
    await expect(read.execute({ rows: [sqlNamed(awkward, { id: splitting, count: 1 }), sqlNamed(awkward, { count: 2 })] })).rejects.toThrow(/uuid/);
  });

  it('fails loudly, not silently, when a statement names a column the table does not have', async () => {
    // The schema says email_events has no_such_column; the database disagrees.
    const wrong = pgTable('email_events', { gone: text('no_such_column') });
    const select = prepareSql(database.db, 'raw_sql_test_wrong_column', sql`select ${columnNames(wrong)} from ${tableName(emailEvents)}`);
    await expect(select.execute({})).rejects.toThrow(/no_such_column/);
  });
});
