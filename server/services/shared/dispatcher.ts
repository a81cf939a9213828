// Imports nothing: the limits and what a row's destinations are come from the kind of work.

/**
 * How long a claimed row may wait for room at its destination before it is given back: a
 * destination that frees no place for this long is slow, and its waiting rows should not hold
 * claims (or hide the due rows behind them) meanwhile.
 */
const PARK_MS = 1_000;

export interface DispatchLimits {
  /** Rows in flight at once in this process, all sweeps together. */
  concurrency: number;
  /** Rows in flight at once to one destination (a recipient domain, a webhook endpoint). */
  perDestination: number;
}

interface Waiting<Row, Result> {
  row: Row;
  destinations: string[];
  since: number;
  /** Who claimed it: told when it starts. */
  started: (running: Promise<Result>) => void;
}

/**
 * What this process has in flight of one kind of due work, shared by every sweep and durable
 * function in it: the slots, the rows in flight per destination, and the claimed rows waiting for
 * room (at most a short while). A destination with its fill (perDestination in flight, and rows
 * waiting to follow) is left out of the next claim, so a slow receiver holds its own share and no more.
 */
export class Dispatcher<Row, Result> {
  private count = 0;
  private readonly perDestination = new Map<string, number>();
  private readonly waiting: Array<Waiting<Row, Result>> = [];
  /** Destinations whose waiting emails waited in vain: slow until one of their deliveries ends. */
  private readonly stalled = new Set<string>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly limits: DispatchLimits,
    /** `leave`: the row is done with its destinations (its exchange with them is over), though not yet with its slot. */
    private readonly run: (row: Row, leave: () => void) => Promise<Result>,
    private readonly destinationsOf: (row: Row) => string[],
  ) {}

  /** A full destination gets more rows claimed once fewer than this wait to follow: its queue never runs dry. */
  private get refillBelow(): number {
    return this.limits.perDestination / 2;
  }

  /** Slots promised to claims under way (several sweeps of one process claim at once). */
  private claiming = 0;

  /** How many more emails a claim should bring: the free slots not already promised to waiting ones or to a claim under way. */
  get room(): number {
    return this.limits.concurrency - this.count - this.waiting.length - this.claiming;
  }

  /**
   * Promises `slots` to a claim about to be made, until `done` is called (once its rows are taken):
   * sweeps claiming at the same moment each see the room the others have not promised, rather than
   * all claiming the same free slots and leaving the surplus to wait, then be given back.
   */
  promise(slots: number): () => void {
    this.claiming += slots;
    let kept = false;
    return () => {
      if (kept) return;
      kept = true;
      this.claiming -= slots;
      // A sweep that found the room all promised looks again now, not at its next poll.
      for (const wake of [...this.listeners]) wake();
    };
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
      .filter(([domain, count]) => count >= this.limits.perDestination && (this.stalled.has(domain) || (waiting.get(domain) ?? 0) >= this.refillBelow))
      .map(([domain]) => domain);
  }

  /** A claimed email: started at once when there is a slot and room at its destinations, otherwise it waits. */
  take(row: Row, started: Waiting<Row, Result>['started']): void {
    const entry: Waiting<Row, Result> = { row, destinations: this.destinationsOf(row), since: performance.now(), started };
    if (!this.tryStart(entry)) this.waiting.push(entry);
  }

  /** Starts it now or not at all (a durable function's single email). */
  startNow(row: Row): Promise<Result> | null {
    let running: Promise<Result> | null = null;
    this.tryStart({ row, destinations: this.destinationsOf(row), since: performance.now(), started: (promise) => (running = promise) });
    return running;
  }

  /** Waiting emails to give back: all of them (the process is stopping), or those that waited too long. */
  giveUp(all: boolean): Row[] {
    const now = performance.now();
    const out: Row[] = [];
    for (let i = this.waiting.length - 1; i >= 0; i -= 1) {
      const entry = this.waiting[i]!;
      if (!all && now - entry.since <= PARK_MS) continue;
      this.waiting.splice(i, 1);
      out.push(entry.row);
      for (const domain of entry.destinations) if ((this.perDestination.get(domain) ?? 0) >= this.limits.perDestination) this.stalled.add(domain);
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

  private tryStart(entry: Waiting<Row, Result>): boolean {
    if (this.count >= this.limits.concurrency) return false;
    if (entry.destinations.some((domain) => (this.perDestination.get(domain) ?? 0) >= this.limits.perDestination)) return false;
    this.count += 1;
    for (const domain of entry.destinations) this.perDestination.set(domain, (this.perDestination.get(domain) ?? 0) + 1);
    let left = false;
    // A destination's place is given up once (when the run says so, or at the latest when it ends).
    const leave = () => {
      if (left) return;
      left = true;
      this.left(entry.destinations);
    };
    entry.started(
      this.run(entry.row, leave).finally(() => {
        leave();
        this.ended();
      }),
    );
    return true;
  }

  /** A run's exchange with its destinations is over: the next row for them may start while it records its outcome. */
  private left(destinations: string[]): void {
    for (const domain of destinations) {
      this.stalled.delete(domain);
      const left = (this.perDestination.get(domain) ?? 1) - 1;
      if (left > 0) this.perDestination.set(domain, left);
      else this.perDestination.delete(domain);
    }
    this.startWaiting();
  }

  private ended(): void {
    this.count -= 1;
    this.startWaiting();
  }

  private startWaiting(): void {
    // The oldest waiting email that now fits goes next, without a round trip to the database.
    const next = this.waiting.findIndex((entry) => this.tryStart(entry));
    if (next >= 0) this.waiting.splice(next, 1);
    for (const wake of [...this.listeners]) wake();
  }
}

