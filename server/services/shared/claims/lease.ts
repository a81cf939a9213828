import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { column, tableName } from '@/db/raw-sql';
import { workers } from '@/db/schema';

/*
 * One way to claim due work, for every kind of it (emails, system mail, domain checks, and what
 * comes later): a claimed row names its holder (`claimed_by`, a worker) and carries a lease
 * (`claimed_until`, database time). The holder renews the lease while the work is alive; another
 * process may take the row over when the holder is seen gone (its worker row was reaped: see
 * worker.ts) or when the lease ran out. Times are the database's, so workers on several machines
 * agree, and the injectable clock, which moves business time in tests, leaves liveness alone.
 */

/** How long a claim holds without renewal: the longest a row waits after its holder vanished unseen. */
export const LEASE_MS = 30_000;
/** How often a worker renews its leases, proves it is alive and looks for workers that are gone. */
export const RENEW_EVERY_MS = 5_000;
/** While the database is away, how often a worker tries again. */
export const RETRY_EVERY_MS = 1_000;

/** A table of due work: it has an id and the two claim columns (db/schema/claims.ts). */
export type ClaimTable = PgTable & { id: AnyPgColumn; claimedBy: AnyPgColumn; claimedUntil: AnyPgColumn };

export const leaseInterval = sql.raw(`interval '${LEASE_MS} milliseconds'`);

/** Who claims, as SQL: a value or a prepared statement's placeholders (`worker`, `takeover`). */
export interface Claimant {
  worker: SQL | Placeholder | string;
  /** Whether leases that ran out may be taken over (WorkerClaims.takeover). */
  takeover: SQL | Placeholder | boolean;
}

export const placeholderClaimant: Claimant = { worker: sql.placeholder('worker'), takeover: sql.placeholder('takeover') };

/**
 * The rows a claimant may claim: held by nobody, or by another worker that is gone or whose lease
 * ran out. A lease that ran out while the database itself was down (it restarted since) counts
 * from the restart, so live holders get a whole lease to renew before anyone takes over. A worker
 * never takes its own rows back by expiry: it releases what it stops working on.
 */
export function claimable(table: ClaimTable, claimant: Claimant): SQL {
  return sql`(${table.claimedBy} is null or (${table.claimedBy} <> ${claimant.worker}::uuid and (
    not exists (select 1 from ${tableName(workers, 'w')} where ${column(workers, 'id', 'w')} = ${table.claimedBy})
    or (${claimant.takeover}::boolean and greatest(${table.claimedUntil}, pg_postmaster_start_time() + ${leaseInterval}) < now()))))`;
}

/** The SET of a claim: this worker holds the row for one lease. */
export const claimedBy = (claimant: Claimant) => ({
  claimedBy: sql`${claimant.worker}::uuid`,
  claimedUntil: sql`now() + ${leaseInterval}`,
});

/**
 * The SET that ends a claim, when this worker still holds it: a worker that lost the row to a
 * takeover must not erase the new holder's claim when it finishes late.
 */
export const unclaimedBy = (table: ClaimTable, worker: SQL | Placeholder | string) => ({
  claimedBy: sql`nullif(${table.claimedBy}, ${worker}::uuid)`,
  claimedUntil: sql`case when ${table.claimedBy} = ${worker}::uuid then null else ${table.claimedUntil} end`,
});

/**
 * The SET assignments of {@link unclaimedBy} for a hand-written UPDATE ... FROM: the row is the
 * table under `rowAlias`, the writer's worker id is `worker` of the input (an input with no
 * worker, such as a replay made without a claim, leaves the claim alone).
 */
export function unclaimedByInput(table: ClaimTable, rowAlias: string, worker: SQL): SQL {
  const [by, until] = [sql.identifier(table.claimedBy.name), sql.identifier(table.claimedUntil.name)];
  const row = sql.identifier(rowAlias);
  return sql`${by} = nullif(${row}.${by}, ${worker}), ${until} = case when ${row}.${by} = ${worker} then null else ${row}.${until} end`;
}
