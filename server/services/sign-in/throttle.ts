import { createHash } from 'node:crypto';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { column, columnNames, perDatabase, prepareSql, tableName } from '@/db/raw-sql';
import { rateLimitBuckets } from '@/db/schema';
import type { Deps } from '../../deps';
import { slidingWindowUpsert, toRateLimitResult } from '../plans/rate-limits';

/**
 * Dashboard sign-ins counted per account (the email asked for) and per client address, in the
 * rate-limit window log every process shares (docs/security.md). Each attempt takes a place in
 * both windows before the password is checked, so parallel guesses cannot all slip past a count
 * that has not landed yet; a successful sign-in gives its places back. What stays counted is
 * failures (and attempts still in flight).
 */
export const SIGN_IN_THROTTLE = {
  windowMs: 15 * 60_000,
  /** Guesses at one account, from anywhere. */
  perAccount: 10,
  /** Guesses from one address (an IPv6 client by its /64), at any accounts: an office behind one NAT shares it. */
  perAddress: 30,
  /** How often one process deletes the windows nobody has used for a whole window. */
  pruneEveryMs: 60_000,
} as const;

/** The longest window any auth route is counted in (auth-routes.ts): pruning waits that long. */
export const LONGEST_AUTH_WINDOW_MS = 60 * 60_000;

const KEY_PREFIX = 'sign-in:';

/** The address's window: IPv4 as is, IPv6 by its /64 (one client usually holds a whole /64). */
export function addressBucketKey(address: string | null): string {
  if (!address) return `${KEY_PREFIX}address:unknown`;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return `${KEY_PREFIX}address:${mapped}`;
  if (net.isIPv6(address)) return `${KEY_PREFIX}address:${ipv6Prefix64(address)}/64`;
  return `${KEY_PREFIX}address:${address}`;
}

function ipv6Prefix64(address: string): string {
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group || '0', 16).toString(16))
    .join(':');
}

/** The account's window, by a hash of the address asked for: the table keeps no list of who tried. */
export const accountBucketKey = (email: string): string => `${KEY_PREFIX}account:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;

interface BucketRow {
  last_allowed: boolean;
  hits: Array<string | number>;
}

const take = perDatabase((db) =>
  prepareSql<BucketRow>(
    db,
    'sign_in_take',
    sql`insert into ${tableName(rateLimitBuckets, 'bucket')} (${columnNames(rateLimitBuckets, ['key', 'hits', 'lastAllowed'])})
      values (${sql.placeholder('key')}, array[${sql.placeholder('now')}::bigint], true)
      ${slidingWindowUpsert(sql`${sql.placeholder('limit')}::int`)}`,
  ),
);

// One occurrence of the time the attempt was counted at leaves the log (two attempts in the same
// millisecond are two entries: the other stays).
const giveBack = perDatabase((db) => {
  const hits = column(rateLimitBuckets, 'hits');
  const at = sql`array_position(${hits}, ${sql.placeholder('at')}::bigint)`;
  return prepareSql<never>(
    db,
    'sign_in_give_back',
    sql`update ${tableName(rateLimitBuckets)} set ${hits} = ${hits}[:${at} - 1] || ${hits}[${at} + 1:]
      where ${column(rateLimitBuckets, 'key')} = ${sql.placeholder('key')} and ${at} is not null`,
  );
});

const prune = perDatabase((db) => {
  const hits = column(rateLimitBuckets, 'hits');
  return prepareSql<never>(
    db,
    'sign_in_prune',
    sql`delete from ${tableName(rateLimitBuckets)} where ${column(rateLimitBuckets, 'key')} like ${`${KEY_PREFIX}%`}
      and coalesce(${hits}[cardinality(${hits})], 0) <= ${sql.placeholder('since')}::bigint`,
  );
});

const lastPruned = new WeakMap<object, number>();

export type SignInTicket =
  | { allowed: true; /** The attempt succeeded: its places in both windows are given back. */ succeeded(): Promise<void> }
  | { allowed: false; retryAfterMs: number; limitedBy: 'account' | 'address' };

export type ThrottleDeps = Pick<Deps, 'db' | 'clock'>;

/** Takes one place in the window `key` (prefixed here), or is refused when `limit` are taken within `windowMs`. */
export async function takePlace(deps: ThrottleDeps, key: string, limit: number, nowMs: number, windowMs: number = SIGN_IN_THROTTLE.windowMs) {
  const [row] = await take(deps.db).execute({ key, limit, now: nowMs, since: nowMs - windowMs });
  const result = toRateLimitResult(row, limit, windowMs, nowMs);
  const hits = (row?.hits ?? []).map(Number);
  return { ...result, countedAt: hits[hits.length - 1] ?? nowMs };
}

/** Gives back the place taken at `at` in the window `key`. */
export const release = (deps: ThrottleDeps, key: string, at: number) => giveBack(deps.db).execute({ key, at });

/**
 * Takes this attempt's place in the address's window, then in the account's. Refused by either,
 * nothing stays counted (a refused attempt checked no password), and the answer says how long
 * until the fullest window has room again.
 */
export async function beginSignIn(deps: ThrottleDeps, attempt: { address: string | null; email: string }): Promise<SignInTicket> {
  const nowMs = deps.clock.now().getTime();
  await pruneNowAndThen(deps, nowMs);
  const addressKey = addressBucketKey(attempt.address);
  const accountKey = accountBucketKey(attempt.email);
  const address = await takePlace(deps, addressKey, SIGN_IN_THROTTLE.perAddress, nowMs);
  if (!address.allowed) return { allowed: false, retryAfterMs: address.resetMs, limitedBy: 'address' };
  const account = await takePlace(deps, accountKey, SIGN_IN_THROTTLE.perAccount, nowMs);
  if (!account.allowed) {
    await release(deps, addressKey, address.countedAt);
    return { allowed: false, retryAfterMs: account.resetMs, limitedBy: 'account' };
  }
  return {
    allowed: true,
    async succeeded() {
      await release(deps, addressKey, address.countedAt);
      await release(deps, accountKey, account.countedAt);
    },
  };
}

/** Windows of addresses and accounts nobody tried for the longest window go, at most once a minute per process. */
export async function pruneNowAndThen(deps: ThrottleDeps, nowMs: number): Promise<void> {
  const last = lastPruned.get(deps.db);
  if (last !== undefined && nowMs - last < SIGN_IN_THROTTLE.pruneEveryMs && nowMs >= last) return;
  lastPruned.set(deps.db, nowMs);
  await prune(deps.db).execute({ since: nowMs - LONGEST_AUTH_WINDOW_MS });
}
