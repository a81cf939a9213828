import type { ProviderLimits } from './shaping';
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
  /** Sessions in use or idle: never more than maxOpen, nor (with its provider's others) the provider's connections. */
  open: number;
  waiting: Array<() => void>;
  closed: boolean;
  /** The mailbox provider the address belongs to (traffic shaping), whose connections are counted across its addresses. */
  provider: string | null;
  maxOpen: number;
  maxUses: number;
}

/** The provider a session is for and its limits (services/delivery-shaping); without one, the pool's own defaults. */
export interface SessionShape {
  provider: string;
  limits: Pick<ProviderLimits, 'connections' | 'messagesPerConnection'>;
}

interface SessionLease {
  session: SmtpSession;
  /** Not connected yet: the caller connects it. */
  fresh: boolean;
  /** Gives the session back; `reusable` only when its last transaction ended cleanly. */
  release(reusable: boolean): void;
}

const pools = new Map<string, HostPool>();
/** A provider's pools (one per MX address) and the sessions open across them. */
const providerPools = new Map<string, Set<HostPool>>();
const providerOpen = new Map<string, number>();

const keyOf = (target: SessionTarget) =>
  [target.ip, target.port, target.host, target.heloName, target.plaintext ? 'plain' : 'starttls', target.timeouts.sessionMs].join(' ');

function discard(pool: HostPool, pooled: Pooled): void {
  pooled.session.close();
  pool.open -= 1;
  if (pool.provider === null) return;
  providerOpen.set(pool.provider, (providerOpen.get(pool.provider) ?? 1) - 1);
  // A place freed at the provider: a lease waiting at another of its addresses may take it.
  for (const sibling of providerPools.get(pool.provider) ?? []) if (sibling !== pool) sibling.waiting.shift()?.();
}

const providerHasRoom = (pool: HostPool) => pool.provider === null || (providerOpen.get(pool.provider) ?? 0) < pool.maxOpen;

/** An idle session at another address of the provider, closed so this address may open one: idle sessions must not hold the provider's places. */
function closeIdleSibling(pool: HostPool): boolean {
  for (const sibling of providerPools.get(pool.provider ?? '') ?? []) {
    const idle = sibling === pool ? undefined : sibling.idle.shift();
    if (!idle) continue;
    if (idle.idleTimer) clearTimeout(idle.idleTimer);
    discard(sibling, idle);
    return true;
  }
  return false;
}

function forget(key: string, pool: HostPool): void {
  if (pools.get(key) === pool) pools.delete(key);
  if (pool.provider !== null) providerPools.get(pool.provider)?.delete(pool);
}

function release(pool: HostPool, key: string, pooled: Pooled, reusable: boolean): void {
  pooled.session.unwatch();
  pooled.uses += 1;
  if (!reusable || pool.closed || pooled.session.broken || pooled.uses >= pool.maxUses) {
    discard(pool, pooled);
  } else {
    pooled.idleTimer = setTimeout(() => {
      const at = pool.idle.indexOf(pooled);
      if (at >= 0) pool.idle.splice(at, 1);
      discard(pool, pooled);
      if (pool.open === 0) forget(key, pool);
    }, IDLE_MS);
    pooled.idleTimer.unref();
    pool.idle.push(pooled);
    // Nobody here wants it: a lease waiting at another address of the provider may close it for a place of its own.
    if (pool.waiting.length === 0 && pool.provider !== null) {
      for (const sibling of providerPools.get(pool.provider) ?? []) if (sibling !== pool && sibling.waiting.length > 0) return sibling.waiting.shift()!();
    }
  }
  pool.waiting.shift()?.();
}

/** A session to this MX address: an idle one of the pool, a new one, or the next one given back. */
export async function leaseSession(target: SessionTarget, shape?: SessionShape): Promise<SessionLease> {
  const key = `${keyOf(target)} ${shape?.provider ?? ''}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = {
      idle: [],
      open: 0,
      waiting: [],
      closed: false,
      provider: shape?.provider ?? null,
      maxOpen: shape?.limits.connections ?? MAX_SESSIONS_PER_HOST,
      maxUses: shape?.limits.messagesPerConnection ?? MAX_USES_PER_SESSION,
    };
    pools.set(key, pool);
    if (pool.provider !== null) providerPools.set(pool.provider, (providerPools.get(pool.provider) ?? new Set()).add(pool));
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
    if (pool.open < pool.maxOpen && !providerHasRoom(pool) && closeIdleSibling(pool)) continue;
    if (pool.open < pool.maxOpen && providerHasRoom(pool)) {
      pool.open += 1;
      if (pool.provider !== null) providerOpen.set(pool.provider, (providerOpen.get(pool.provider) ?? 0) + 1);
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
  providerPools.clear();
  providerOpen.clear();
}
