/**
 * Telling a database that is away from a bug: these errors mean Postgres could not be reached, went
 * away, or did not answer in time, so the caller should try again later (503, SMTP 451, a sweep's
 * back-off), while anything else is a fault of ours (500).
 */

/** A query that got no answer within its deadline (db/deadline.ts). */
export class DatabaseDeadlineError extends Error {
  readonly code = 'QUERY_DEADLINE';
  constructor(ms: number) {
    super(`the database did not answer within ${ms} ms`);
    this.name = 'DatabaseDeadlineError';
  }
}

// postgres-js's own connection errors, and the socket errors of Node under them.
const CONNECTION_CODES = new Set([
  'QUERY_DEADLINE',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that cannot serve now: class 08 (connection exception), 53 (insufficient
 * resources: too many connections, disk or memory full), 57P01-57P03 (shut down, crashed, starting
 * up) and 57014 (a statement cancelled: our deadline, or the server's statement_timeout).
 */
const UNAVAILABLE_SQLSTATE = /^(08|53|57P0[123]$|57014$)/;

const codeOf = (error: object): string | undefined => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
};

/** Whether the error, or any error it wraps (drizzle's DrizzleQueryError, an AggregateError), says the database is away. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 8) return false;
  const code = codeOf(error);
  if (code && (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  const nested = (error as { errors?: unknown }).errors;
  if (Array.isArray(nested) && nested.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable((error as { cause?: unknown }).cause, depth + 1);
}

/**
 * A statement that lost to another one and may simply be run again: a deadlock, a serialization
 * failure, a lock that could not be had (SQLSTATEs 40P01, 40001, 55P03).
 */
export function isTransientConflict(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 8) return false;
  const code = codeOf(error);
  if (code === '40P01' || code === '40001' || code === '55P03') return true;
  return isTransientConflict((error as { cause?: unknown }).cause, depth + 1);
}
