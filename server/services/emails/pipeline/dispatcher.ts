import type { Deps } from '../../../deps';
import type { WorkerClaims } from '../../shared/claims/worker';
import { gatedDestinations, PER_DESTINATION } from './destinations';
import type { ClaimedEmail, DispatchResult } from './types';

/** Emails this process has in flight at once, all sweeps together: enough to keep many destinations busy. */
export const DISPATCH_CONCURRENCY = 32;
/**
 * How long a claimed email may wait for room at its destination before it is given back: a
 * destination that frees no place for this long is slow, and its waiting emails should not hold
 * claims (or hide the due emails behind them) meanwhile.
 */
const PARK_MS = 1_000;
/** A full destination gets more emails claimed once fewer than this wait to follow: its queue never runs dry. */
const REFILL_BELOW = PER_DESTINATION / 2;

interface Waiting {
  row: ClaimedEmail;
  destinations: string[];
  since: number;
  /** Who claimed it: told when it starts. */
  started: (running: Promise<DispatchResult>) => void;
}

/**
 * What this process has in flight, shared by every sweep and durable function in it: the slots,
 * the emails in flight per destination, and the claimed emails waiting for room (at most a short
 * while). A destination with its fill (PER_DESTINATION in flight, or that many held) is left out
 * of the next claim, so a slow receiving server holds its own share and no more.
 */
export class Dispatcher {
  private count = 0;
  private readonly perDestination = new Map<string, number>();
  private readonly waiting: Waiting[] = [];
  /** Destinations whose waiting emails waited in vain: slow until one of their deliveries ends. */
  private readonly stalled = new Set<string>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly run: (row: ClaimedEmail) => Promise<DispatchResult>, private readonly destinationsOf: (row: ClaimedEmail) => string[]) {}

  /** How many more emails a claim should bring: the free slots not already promised to waiting ones. */
  get room(): number {
    return DISPATCH_CONCURRENCY - this.count - this.waiting.length;
  }

  get inFlight(): number {
    return this.count;
  }

  /**
   * Destinations the next claim should leave alone: full, and either with enough emails already
   * waiting to follow (a fast destination, refilled before its queue runs dry), or stalled (a slow
   * one, whose waiting emails were given back: it gets no more until one of its deliveries ends).
   */
  busy(): string[] {
    const waiting = new Map<string, number>();
    for (const entry of this.waiting) for (const domain of entry.destinations) waiting.set(domain, (waiting.get(domain) ?? 0) + 1);
    return [...this.perDestination]
      .filter(([domain, count]) => count >= PER_DESTINATION && (this.stalled.has(domain) || (waiting.get(domain) ?? 0) >= REFILL_BELOW))
      .map(([domain]) => domain);
  }

  /** A claimed email: started at once when there is a slot and room at its destinations, otherwise it waits. */
  take(row: ClaimedEmail, started: Waiting['started']): void {
    const entry: Waiting = { row, destinations: this.destinationsOf(row), since: performance.now(), started };
    if (!this.tryStart(entry)) this.waiting.push(entry);
  }

  /** Starts it now or not at all (a durable function's single email). */
  startNow(row: ClaimedEmail): Promise<DispatchResult> | null {
    let running: Promise<DispatchResult> | null = null;
    this.tryStart({ row, destinations: this.destinationsOf(row), since: performance.now(), started: (promise) => (running = promise) });
    return running;
  }

  /** Waiting emails to give back: all of them (the process is stopping), or those that waited too long. */
  giveUp(all: boolean): ClaimedEmail[] {
    const now = performance.now();
    const out: ClaimedEmail[] = [];
    for (let i = this.waiting.length - 1; i >= 0; i -= 1) {
      const entry = this.waiting[i]!;
      if (!all && now - entry.since <= PARK_MS) continue;
      this.waiting.splice(i, 1);
      out.push(entry.row);
      for (const domain of entry.destinations) if ((this.perDestination.get(domain) ?? 0) >= PER_DESTINATION) this.stalled.add(domain);
    }
    return out;
  }

  /** Resolves when a dispatch ends or after `ms`, whichever comes first. */
  somethingEnds(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.listeners.add(done);
    });
  }

  private tryStart(entry: Waiting): boolean {
    if (this.count >= DISPATCH_CONCURRENCY) return false;
    if (entry.destinations.some((domain) => (this.perDestination.get(domain) ?? 0) >= PER_DESTINATION)) return false;
    this.count += 1;
    for (const domain of entry.destinations) this.perDestination.set(domain, (this.perDestination.get(domain) ?? 0) + 1);
    entry.started(this.run(entry.row).finally(() => this.ended(entry.destinations)));
    return true;
  }

  private ended(destinations: string[]): void {
    this.count -= 1;
    for (const domain of destinations) {
      this.stalled.delete(domain);
      const left = (this.perDestination.get(domain) ?? 1) - 1;
      if (left > 0) this.perDestination.set(domain, left);
      else this.perDestination.delete(domain);
    }
    // The oldest waiting email that now fits goes next, without a round trip to the database.
    const next = this.waiting.findIndex((entry) => this.tryStart(entry));
    if (next >= 0) this.waiting.splice(next, 1);
    for (const wake of [...this.listeners]) wake();
  }
}

const dispatchers = new WeakMap<WorkerClaims, Dispatcher>();

/** The process's dispatcher (one per worker: tests give several workers one process). */
export function dispatcherOf(deps: Deps, run: (deps: Deps, row: ClaimedEmail) => Promise<DispatchResult>): Dispatcher {
  let dispatcher = dispatchers.get(deps.claims);
  if (!dispatcher) {
    dispatcher = new Dispatcher(
      (row) => run(deps, row),
      (row) => gatedDestinations(deps, row),
    );
    dispatchers.set(deps.claims, dispatcher);
  }
  return dispatcher;
}
