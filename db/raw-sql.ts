import { getTableColumns, getTableName, sql, type Column, type SQL, type Placeholder } from 'drizzle-orm';
import type { PgDialect, PgSession, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/*
 * The one home of hand-written SQL's plumbing: prepared statements (through drizzle's session,
 * an internal of the pinned drizzle-orm) and every table and column name a raw statement needs,
 * derived from the schema. A service writes its statement's logic; the names come from here, so
 * renaming a column in db/schema breaks the typecheck or a test, never production.
 */

/**
 * A prepared statement is bound to the database object it was built on, so hot-path queries are
 * built once per database and reused: no SQL rebuilt per call, and Postgres plans them once.
 */
export function perDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let prepared = cache.get(db);
    if (!prepared) {
      prepared = build(db);
      cache.set(db, prepared);
    }
    return prepared;
  };
}

interface PreparedSql<T> {
  execute(values: Record<string, unknown>): Promise<T[]>;
}

/**
 * A prepared statement from raw SQL with `sql.placeholder`s, for the few statements the query
 * builder cannot express (a data-modifying CTE). Goes through drizzle's session, which
 * `db.execute` does not prepare; drizzle-orm is pinned, so the internal call is stable. Named, it
 * is planned once by Postgres; `name: null` sends it unnamed, planned on each run, for a statement
 * whose best plan changes as its tables grow.
 */
export function prepareSql<T>(db: Db, name: string | null, query: SQL): PreparedSql<T> {
  const internals = db as unknown as { dialect: PgDialect; session: PgSession };
  const prepared = internals.session.prepareQuery(internals.dialect.sqlToQuery(query), undefined, name ?? undefined, false);
  return {
    async execute(values) {
      const result = (await prepared.execute(values)) as T[] | { rows: T[] };
      return Array.isArray(result) ? result : result.rows;
    },
  };
}

type ColumnKey<T extends PgTable> = keyof T['_']['columns'] & string;

interface ColumnFacts {
  key: string;
  name: string;
  sqlType: string;
  /** What an unset property stores: the column's plain default, else null (an SQL default is not a value). */
  fallback: unknown;
}

const facts = new WeakMap<PgTable, ColumnFacts[]>();

/** Every column of a table in schema order, with its SQL name and type. */
export function columnsOf(table: PgTable): ColumnFacts[] {
  let list = facts.get(table);
  if (!list) {
    list = (Object.entries(getTableColumns(table)) as Array<[string, Column]>).map(([key, column]) => ({
      key,
      name: column.name,
      sqlType: column.getSQLType(),
      fallback: column.hasDefault && !(column.default instanceof Object && 'queryChunks' in column.default) ? column.default : null,
    }));
    facts.set(table, list);
  }
  return list;
}

const pick = <T extends PgTable>(table: T, keys?: ReadonlyArray<ColumnKey<T>>) => {
  const all = columnsOf(table);
  return keys ? keys.map((key) => all.find((column) => column.key === key)!) : all;
};

/** `"id", "email_id", …`: the SQL names of these columns (all of them by default), for an INSERT's column list. */
export function columnNames<T extends PgTable>(table: T, keys?: ReadonlyArray<ColumnKey<T>>): SQL {
  return sql.join(
    pick(table, keys).map((column) => sql.identifier(column.name)),
    sql.raw(', '),
  );
}

/** One column's SQL name, qualified by an alias when given (`"o"."status"`). */
export function column<T extends PgTable>(table: T, key: ColumnKey<T>, alias?: string): SQL {
  const name = sql.identifier(pick(table, [key])[0]!.name);
  return alias ? sql`${sql.identifier(alias)}.${name}` : sql`${name}`;
}

/** A table's SQL name, with an alias when given (`"organizations" as "o"`). */
export function tableName(table: PgTable, alias?: string): SQL {
  const name = sql.identifier(getTableName(table));
  return alias ? sql`${name} as ${sql.identifier(alias)}` : sql`${name}`;
}

/** What a statement's rows input holds: records under the columns' SQL names, as {@link sqlNamed} writes them. */
export type InputRows = ReadonlyArray<Record<string, unknown>>;

type Spell = (value: unknown) => string;

// An element is quoted and its quotes and backslashes escaped; indexOf and replaceAll are native
// scans, several times cheaper than a regex over a kilobyte of HTML.
const quoted = (text: string) =>
  text.indexOf('"') === -1 && text.indexOf('\\') === -1 ? '"' + text + '"' : '"' + text.replaceAll('\\', '\\\\').replaceAll('"', '\\"') + '"';

const JSON_TYPES = new Set(['json', 'jsonb']);

/**
 * Types whose spelling of a number, boolean or Date never holds a quote, comma, brace, backslash or
 * space: those elements go unquoted. A string is always quoted, whatever the type: text from a
 * request must never split an element.
 */
const PLAIN_TYPES = /^(uuid|integer|bigint|smallint|boolean|numeric|real|double precision|date|timestamp( with(out)? time zone)?)$/;

/** Postgres's array literal of one property of these records (`{"a",NULL}`), each element written by `element`. */
function arrayLiteral(records: ArrayLike<unknown>, read: (record: unknown) => unknown, element: Spell): string {
  // Joined, not concatenated: one flat string, which the driver then copies once.
  const elements = new Array<string>(records.length);
  for (let i = 0; i < records.length; i++) {
    const value = read(records[i]);
    elements[i] = value === null || value === undefined ? 'NULL' : element(value);
  }
  return `{${elements.join(',')}}`;
}

const itself = (value: unknown) => value;

/**
 * A JSON document as an array element, quoted: JSON.stringify of its text escapes exactly the
 * quotes and backslashes, as {@link quoted} does, because the text JSON.stringify wrote holds no
 * control character and no lone surrogate (both are escaped in it) for the second pass to touch.
 * Two native calls, where a document full of quotes would be scanned and copied twice more.
 */
const quotedJson = (value: unknown) => JSON.stringify(JSON.stringify(value));

/**
 * A time's text, remembered for the next element: the rows of one statement mostly share their
 * times (an email's created, updated and due moments are the request's `now`).
 */
function timeSpeller(): Spell {
  let lastTime = Number.NaN;
  let lastText = '';
  return (value) => {
    if (!(value instanceof Date)) return typeof value === 'string' ? value : String(value);
    const time = value.getTime();
    if (time !== lastTime) {
      lastText = value.toISOString();
      lastTime = time;
    }
    return lastText;
  };
}

/** How one value of a scalar SQL type is written as text that the type's input function reads back. */
function scalarSpeller(sqlType: string): Spell {
  if (JSON_TYPES.has(sqlType)) return (value) => JSON.stringify(value);
  if (sqlType === 'boolean') return (value) => (value ? 't' : 'f');
  if (sqlType.startsWith('timestamp') || sqlType === 'date') return timeSpeller();
  return (value) => (typeof value === 'string' ? value : String(value));
}

/**
 * A list of strings as an element (the inner literal, quoted): written escaped at once when no
 * string holds a quote or a backslash, the same text {@link quoted} makes of the inner literal
 * without scanning and copying it twice more; otherwise that way.
 */
function textListElement(spell: Spell): Spell {
  const generic = (value: unknown) => quoted(spell(value));
  return (value) => {
    const list = value as unknown[];
    let text = '"{';
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (typeof item !== 'string' || item.indexOf('"') !== -1 || item.indexOf('\\') !== -1) return generic(value);
      text += (i === 0 ? '\\"' : ',\\"') + item + '\\"';
    }
    return text + '}"';
  };
}

/** How one non-null value of a scalar SQL type is written as an element of an array literal. */
function scalarElementOf(sqlType: string): Spell {
  if (JSON_TYPES.has(sqlType)) return quotedJson;
  const spell = scalarSpeller(sqlType);
  if (!PLAIN_TYPES.test(sqlType)) return (value) => quoted(spell(value));
  return (value) => (typeof value === 'string' ? quoted(value) : spell(value));
}

/** A list of a scalar type as an element: its own array literal (`{"a","b"}`), quoted. */
function listElementOf(itemType: string): Spell {
  const item = scalarElementOf(itemType);
  const literal = (value: unknown) => arrayLiteral(value as unknown[], itself, item);
  return PLAIN_TYPES.test(itemType) || JSON_TYPES.has(itemType) ? (value) => quoted(literal(value)) : textListElement(literal);
}

/** How one non-null value of an SQL type, a scalar or a list of one, is written as an element of an array literal. */
function elementOf(sqlType: string): Spell {
  return sqlType.endsWith('[]') ? listElementOf(sqlType.slice(0, -2)) : scalarElementOf(sqlType);
}

/**
 * `(select … from unnest($a::uuid[], $b::text[], …)) as alias("id", …)`: rows typed like these
 * columns of the table, so a statement's input and the table it fills cannot drift apart. The
 * placeholder takes an array of records ({@link InputRows}); each column travels as one array
 * literal, which Postgres reads several times faster than the same rows as JSON (a JSON object is
 * lexed character by character into a hash table per row; an array literal is split in place).
 * A column that is itself an array goes as text and is cast per row (arrays cannot be ragged).
 * Each array is read in a subquery, which hides its length from the planner: a plan made for a
 * known number of rows costs less than the generic one, so Postgres would plan such a named
 * statement on every call, and planning a long statement costs more than running it.
 * `extra` adds input fields that are no column of the table (`["expected", "jsonb"]`).
 */
export function recordsetOf<T extends PgTable>(placeholder: string, alias: string, table: T, keys?: ReadonlyArray<ColumnKey<T>>, extra: Array<[string, string]> = []): SQL {
  const columns = [...pick(table, keys).map((column) => [column.name, column.sqlType] as const), ...extra].map(([name, type]) => ({
    name,
    type,
    read: (row: unknown) => (row as Record<string, unknown>)[name],
  }));
  return recordset(placeholder, alias, columns);
}

interface InputColumn {
  name: string;
  type: string;
  read: (row: unknown) => unknown;
}

const rowsOf = (placeholder: string, rows: unknown): unknown[] => {
  if (!Array.isArray(rows)) throw new TypeError(`placeholder "${placeholder}" takes an array of rows, not ${typeof rows}`);
  return rows;
};

const hasNull = (rows: unknown[], read: (row: unknown) => unknown) => rows.some((row) => read(row) == null);

/**
 * A JSON column's values. Without a null among them they travel as one JSON array, which Postgres
 * reads in one pass, where an array literal of documents is unquoted and then parsed document by
 * document (2.3 times the time for a batch's headers and tags); JSON has no SQL null to tell from
 * a `null` document, so with a null among them they travel as the array literal instead.
 */
function jsonColumn(source: Placeholder, placeholder: string, type: string, read: (row: unknown) => unknown): SQL {
  const asLiteral = {
    mapToDriverValue(rows: unknown) {
      const list = rowsOf(placeholder, rows);
      return hasNull(list, read) ? arrayLiteral(list, read, quotedJson) : null;
    },
  };
  const asDocument = {
    mapToDriverValue(rows: unknown) {
      const list = rowsOf(placeholder, rows);
      return hasNull(list, read) ? null : JSON.stringify(list.map(read));
    },
  };
  const elements = sql.raw(`${type}_array_elements`);
  return sql`(select coalesce(${sql.param(source, asLiteral)}::text::${sql.raw(type)}[], array(select ${elements}(${sql.param(source, asDocument)}::text::${sql.raw(type)}))))`;
}

function recordset(placeholder: string, alias: string, columns: InputColumn[]): SQL {
  const source = sql.placeholder(placeholder);
  const arrays = columns.map(({ type, read }) => {
    if (JSON_TYPES.has(type)) return jsonColumn(source, placeholder, type, read);
    const element = elementOf(type);
    const encoder = {
      mapToDriverValue: (rows: unknown) => arrayLiteral(rowsOf(placeholder, rows), read, element),
    };
    return sql`(select ${sql.param(source, encoder)}::text::${sql.raw(type.endsWith('[]') ? 'text' : type)}[])`;
  });
  const selected = columns.map(({ name, type }) =>
    type.endsWith('[]') ? sql`${sql.identifier(name)}::${sql.raw(type)} as ${sql.identifier(name)}` : sql.identifier(name),
  );
  const names = columns.map(({ name }) => sql.identifier(name));
  return sql`(select ${sql.join(selected, sql.raw(', '))} from unnest(${sql.join(arrays, sql.raw(', '))}) as input(${sql.join(names, sql.raw(', '))})) as ${sql.identifier(alias)}`;
}

/**
 * Every column of the table, in its order, from whole rows as drizzle inserts them (`$inferInsert`:
 * the schema's property names): an unset property stores the column's plain default, else null
 * (an SQL default is not a value). No record is built per row: each column reads its property.
 */
export function populateRecordset(table: PgTable, placeholder: string): SQL {
  const columns = columnsOf(table).map(({ key, name, sqlType, fallback }) => ({
    name,
    type: sqlType,
    read: (row: unknown) => (row as Record<string, unknown>)[key] ?? fallback,
  }));
  return recordset(placeholder, `${placeholder}_input`, columns);
}

/** The properties of a row that are columns of the table, under their SQL names: the records a {@link recordsetOf} reads. */
export function sqlNamed<T extends PgTable>(table: T, row: Partial<Record<ColumnKey<T>, unknown>>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const { key, name } of columnsOf(table)) if (key in row) record[name] = (row as Record<string, unknown>)[key];
  return record;
}

/**
 * A UUIDv7 made by Postgres (which has no uuidv7() before 18), for rows an INSERT ... SELECT
 * creates in numbers the caller does not know: the random bits of gen_random_uuid() under the
 * current Unix milliseconds, version bits turned from 4 to 7.
 */
export const sqlUuidV7 = sql`encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid`;
