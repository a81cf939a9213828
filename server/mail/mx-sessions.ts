import { SmtpSession, type SessionTarget } from './smtp-session';

// Like the relay pool: a few connections per MX address, each reused for a run of emails, so a
// busy domain costs neither a TCP + greeting per email nor more connections than a server likes.
const MAX_SESSIONS_PER_HOST = 5;
const MAX_USES_PER_SESSION = 100;
// Far below the 5 minutes RFC 5321 §4.5.3.2.7 asks servers to wait, so a server seldom drops an
// idle session just as we pick it up.
const IDLE_MS = 5_000;

interface Pooled {
  session: SmtpSession;
  uses: number;
  idleTimer: NodeJS.Timeout | null;
}

interface HostPool {
  idle: Pooled[];
  /** Sessions in use or idle: never more than MAX_SESSIONS_PER_HOST. */
  open: number;
  waiting: Array<() => void>;
  closed: boolean;
}

interface SessionLease {
  session: SmtpSession;
  /** Not connected yet: the caller connects it. */
  fresh: boolean;
  /** Gives the session back; `reusable` only when its last transaction ended cleanly. */
  release(reusable: boolean): void;
}

const pools = new Map<string, HostPool>();

const keyOf = (target: SessionTarget) =>
  [target.ip, target.port, target.host, target.heloName, target.plaintext ? 'plain' : 'starttls', target.timeouts.sessionMs].join(' ');

function discard(pool: HostPool, pooled: Pooled): void {
  pooled.session.close();
  pool.open -= 1;
}

function release(pool: HostPool, key: string, pooled: Pooled, reusable: boolean): void {
  pooled.session.unwatch();
  pooled.uses += 1;
  if (!reusable || pool.closed || pooled.session.broken || pooled.uses >= MAX_USES_PER_SESSION) {
    discard(pool, pooled);
  } else {
    pooled.idleTimer = setTimeout(() => {
      const at = pool.idle.indexOf(pooled);
      if (at >= 0) pool.idle.splice(at, 1);
      discard(pool, pooled);
      if (pool.open === 0 && pools.get(key) === pool) pools.delete(key);
    }, IDLE_MS);
    pooled.idleTimer.unref();
    pool.idle.push(pooled);
  }
  pool.waiting.shift()?.();
}

/** A session to this MX address: an idle one of the pool, a new one, or the next one given back. */
export async function leaseSession(target: SessionTarget): Promise<SessionLease> {
  const key = keyOf(target);
  let pool = pools.get(key);
  if (!pool) {
    pool = { idle: [], open: 0, waiting: [], closed: false };
    pools.set(key, pool);
  }
  for (;;) {
    // The most recently used first: the least likely to have been dropped by the server.
    const idle = pool.idle.pop();
    if (idle) {
      if (idle.idleTimer) clearTimeout(idle.idleTimer);
      idle.idleTimer = null;
      if (idle.session.broken) {
        discard(pool, idle);
        continue;
      }
      idle.session.watch();
      const owner = pool;
      return { session: idle.session, fresh: false, release: (reusable) => release(owner, key, idle, reusable) };
    }
    if (pool.open < MAX_SESSIONS_PER_HOST) {
      pool.open += 1;
      const pooled: Pooled = { session: new SmtpSession(target), uses: 0, idleTimer: null };
      const owner = pool;
      return { session: pooled.session, fresh: true, release: (reusable) => release(owner, key, pooled, reusable) };
    }
    await new Promise<void>((resolve) => pool!.waiting.push(resolve));
  }
}

/** Closes every idle MX session; those in use close when given back (on shutdown, and between tests). */
export function closeMxSessions(): void {
  for (const pool of pools.values()) {
    pool.closed = true;
    for (const pooled of pool.idle.splice(0)) {
      if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
      discard(pool, pooled);
    }
    for (const wake of pool.waiting.splice(0)) wake();
  }
  pools.clear();
}
