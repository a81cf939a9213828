import type { SQL } from 'drizzle-orm';
import type { PgDialect, PgSession } from 'drizzle-orm/pg-core';
import type { Db } from './client';

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

export interface PreparedSql<T> {
  execute(values: Record<string, unknown>): Promise<T[]>;
}

/**
 * A named prepared statement from raw SQL with `sql.placeholder`s, for the few statements the
 * query builder cannot express (a data-modifying CTE). Goes through drizzle's session, which
 * `db.execute` does not prepare; drizzle-orm is pinned, so the internal call is stable.
 */
export function prepareSql<T>(db: Db, name: string, query: SQL): PreparedSql<T> {
  const internals = db as unknown as { dialect: PgDialect; session: PgSession };
  const prepared = internals.session.prepareQuery(internals.dialect.sqlToQuery(query), undefined, name, false);
  return {
    async execute(values) {
      const result = (await prepared.execute(values)) as T[] | { rows: T[] };
      return Array.isArray(result) ? result : result.rows;
    },
  };
}
