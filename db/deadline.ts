import { AsyncLocalStorage } from 'node:async_hooks';
import type { Sql } from 'postgres';
import { DatabaseDeadlineError } from './unavailable';

/*
 * A bound on every wait for Postgres. A stopped server refuses at once, but one that is frozen or
 * cut off by the network leaves a query waiting for minutes (TCP gives up late), and a request
 * must not. Each query (and each transaction, as a whole) gets at most the bound of the work it
 * runs for: an API request's (`withQueryBound`), or the client's fallback for background work. A
 * query past its bound is cancelled (taken out of the queue if it never reached a connection, so
 * it can no longer write anything) and fails with DatabaseDeadlineError, which the edges answer as
 * 503 and background work treats as the database being away.
 */

const bounds = new AsyncLocalStorage<number>();

/** Runs `fn` with each query it makes bounded by `ms`. */
export function withQueryBound<T>(ms: number, fn: () => T): T {
  return bounds.run(ms, fn);
}

/** Runs `fn` outside any request's bound: background work a request woke keeps the fallback. */
export function withoutQueryBound<T>(fn: () => T): T {
  return bounds.exit(fn);
}

const boundOf = (fallbackMs: number) => bounds.getStore() ?? fallbackMs;

function bounded<T>(work: PromiseLike<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new DatabaseDeadlineError(ms));
    }, ms);
  });
  const settled = Promise.resolve(work);
  // Once the bound has answered, the query's own late failure is nobody's business.
  settled.catch(() => undefined);
  return Promise.race([settled, expired]).finally(() => clearTimeout(timer));
}

interface PendingQuery extends PromiseLike<unknown> {
  values(): PendingQuery;
  cancel(): Promise<void> | void;
}

/** What drizzle's session does with a query: `.values()`, then awaits it. Lazy, like postgres-js's own. */
function boundedQuery(query: PendingQuery, ms: number): PromiseLike<unknown> & { values(): unknown } {
  const cancel = () => void Promise.resolve(query.cancel()).catch(() => undefined);
  let running: Promise<unknown> | null = null;
  const wrapper = {
    values() {
      query.values();
      return wrapper;
    },
    then<A, B>(onfulfilled?: ((value: unknown) => A | PromiseLike<A>) | null, onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null) {
      running ??= bounded(query, ms, cancel);
      return running.then(onfulfilled, onrejected);
    },
  };
  return wrapper;
}

type TransactionFn = (tx: Sql) => unknown;

/**
 * A transaction under the same bound: if BEGIN only gets a connection after it, or the body ends
 * after it, the body throws and postgres-js rolls back, so a request answered 503 does not commit
 * later behind the client's back (a COMMIT already sent when the bound passes is the one window left).
 */
function boundedTransaction(start: (fn: TransactionFn) => Promise<unknown>, fn: TransactionFn, fallbackMs: number): Promise<unknown> {
  const ms = boundOf(fallbackMs);
  const at = performance.now() + ms;
  const late = () => performance.now() >= at;
  const body = async (tx: Sql) => {
    if (late()) throw new DatabaseDeadlineError(ms);
    const result = await fn(withDeadlines(tx, fallbackMs));
    if (late()) throw new DatabaseDeadlineError(ms);
    return result;
  };
  return bounded(start(body), ms, () => undefined);
}

/** The postgres-js client with every query and transaction drizzle makes through it bounded. */
export function withDeadlines(client: Sql, fallbackMs: number): Sql {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe') {
        return (query: string, params?: unknown[], options?: object) =>
          boundedQuery((target.unsafe as unknown as (...args: unknown[]) => PendingQuery)(query, params, options), boundOf(fallbackMs));
      }
      if (property === 'begin' || property === 'savepoint') {
        const start = (target as unknown as Record<string, (...inner: unknown[]) => Promise<unknown>>)[property]!;
        return (...args: unknown[]) => {
          const fn = args.pop() as TransactionFn;
          return boundedTransaction((body) => start.call(target, ...args, body), fn, fallbackMs);
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}
