import type { Hold, Provider, ProviderReply, ReplyVerdict, ShapingGate } from '../../mail/shaping';
import type { Clock } from '../../clock';
import { limitsFor, type LimitOverrides } from './limits';
import { providerIdOf } from './providers';
import { namesTheService, verdictOf } from './replies';
import type { ShapingStore, StoredPause } from './store';

/*
 * Traffic shaping per provider and sending domain, in this process's memory: the send path asks it
 * before every transaction and tells it every reply, and neither waits on the database. What must
 * be shared or outlive the process goes to the store (store.ts): a pause at once, the adapted rates
 * and reply counts every few seconds. The numbers below are explained in docs/delivery.md.
 */

/** The slowest a provider is ever driven to, per sending domain: slow enough to please it, fast enough to notice it is happy again. */
export const MIN_RATE_PER_MINUTE = 10;
/** One halving per this long: a burst of 421s on the connections already open is one signal, not ten. */
const SLOW_COOLDOWN_MS = 60_000;
/** While replies are good, the rate rises by RECOVERY_FACTOR this often, until it is back where it was. */
const RECOVERY_STEP_MS = 60_000;
const RECOVERY_FACTOR = 1.5;
/** Tokens a lane may save up: five seconds' worth of its rate (at least one message). */
const BURST_SECONDS = 5;
/** An automatic pause lasts this long; then the provider is probed at the slowest rate. */
const AUTO_PAUSE_MS = 60 * 60_000;
/** A provider that blocks us again after its pause ended is paused again, but the operator is alerted at most this often per provider and scope. */
const REALERT_MS = 24 * 60 * 60_000;
/** Recipients held by a pause are looked at again this often (an operator may resume it meanwhile). */
const PAUSED_RETRY_MS = 15 * 60_000;
/** Reply counts (deferral rate) are kept over two windows of this length. */
const WINDOW_MS = 5 * 60_000;
/** How often (real time) a process reads the shared pauses and writes its rates. */
const SYNC_MS = 5_000;

/** Every sending domain: a provider-wide pause (the service itself is blocked, or an operator paused it all). */
export const EVERY_DOMAIN = '';

export interface Lane {
  provider: string;
  sendingDomain: string;
  /** Messages per minute in force; null: the table's limit (perhaps none). */
  rate: number | null;
  /** The rate at which the adaptation ends and the table's limit applies again. */
  restoreTo: number | null;
  tokens: number;
  refilledAt: number;
  /** The last time handed to a held recipient: the next one held gets the slot after it. */
  lastSlotAt: number;
  lastSlowAt: number | null;
  lastRaiseAt: number;
  minute: { start: number; sent: number; previous: number };
  window: { start: number; replies: number; deferrals: number; previousReplies: number; previousDeferrals: number };
  dirty: boolean;
}

export interface PauseAlert {
  provider: string;
  /** null: every sending domain (the reply names the service). */
  sendingDomain: string | null;
  reply: string;
  until: Date;
}

export interface ShaperOptions {
  clock: Clock;
  /** MAIL_HOST: a block naming it names the service. */
  mailHost: string;
  overrides: LimitOverrides;
  store: ShapingStore;
  /** A reputation block paused a provider: log, count, mail the operator. */
  alert(alert: PauseAlert): void;
  /** A write or read of the store failed: logged, never thrown at the send path. */
  fault(error: unknown): void;
}

const keyOf = (provider: string, sendingDomain: string) => `${provider}\u0000${sendingDomain}`;

export class DeliveryShaper implements ShapingGate {
  private readonly lanes = new Map<string, Lane>();
  private pauses = new Map<string, StoredPause>();
  /** Pauses and resumes made here since the last read: the read must not undo them before they are written. */
  private readonly pending = new Set<string>();
  private readonly domains = new Map<string, string>();
  private readonly domainsToWrite = new Map<string, string>();
  private readonly alerted = new Map<string, number>();
  private chain: Promise<void> = Promise.resolve();
  private lastSync = performance.now();
  /** Bumped by reset: a read begun before it must not bring back what it forgot. */
  private generation = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: ShaperOptions) {}

  private now(): number {
    return this.options.clock.now().getTime();
  }

  providerOf(domain: string, mxHosts: string[]): Provider {
    const id = providerIdOf(domain, mxHosts);
    if (this.domains.get(domain) !== id) {
      this.domains.set(domain, id);
      this.domainsToWrite.set(domain, id);
    }
    return { id, limits: limitsFor(id, this.options.overrides) };
  }

  lane(provider: string, sendingDomain: string): Lane {
    const key = keyOf(provider, sendingDomain);
    let lane = this.lanes.get(key);
    if (!lane) {
      const now = this.now();
      lane = {
        provider,
        sendingDomain,
        rate: null,
        restoreTo: null,
        tokens: Number.POSITIVE_INFINITY,
        refilledAt: now,
        lastSlotAt: 0,
        lastSlowAt: null,
        lastRaiseAt: now,
        minute: { start: now, sent: 0, previous: 0 },
        window: { start: now, replies: 0, deferrals: 0, previousReplies: 0, previousDeferrals: 0 },
        dirty: false,
      };
      this.lanes.set(key, lane);
    }
    return lane;
  }

  /** Messages per minute a lane may send now; null: no limit. */
  rateOf(lane: Lane): number | null {
    return lane.rate ?? limitsFor(lane.provider, this.options.overrides).messagesPerMinute;
  }

  /** The pause that holds this provider for this sending domain now, if any. */
  pauseOf(provider: string, sendingDomain: string): StoredPause | null {
    const now = this.now();
    for (const key of [keyOf(provider, sendingDomain), keyOf(provider, EVERY_DOMAIN)]) {
      const pause = this.pauses.get(key);
      if (pause && (pause.until === null || pause.until.getTime() > now)) return pause;
    }
    return null;
  }

  admit(provider: string, sendingDomain: string): Hold | null {
    this.syncSoon();
    const now = this.now();
    const pause = this.pauseOf(provider, sendingDomain);
    if (pause) {
      const retryAt = pause.until ? Math.min(pause.until.getTime(), now + PAUSED_RETRY_MS) : now + PAUSED_RETRY_MS;
      return { reason: `not tried: deliveries to ${provider} are paused (${pause.by === 'operator' ? 'by the operator' : 'blocked for reputation'}): ${pause.reason}`, retryAt: new Date(retryAt) };
    }
    const lane = this.lane(provider, sendingDomain);
    const rate = this.rateOf(lane);
    if (rate !== null) {
      this.refill(lane, rate, now);
      if (lane.tokens < 1) {
        // Each held recipient gets a slot of its own, one interval after the last one handed out:
        // a backlog comes back spread at the lane's pace, not all at once to be held again.
        const interval = 60_000 / rate;
        lane.lastSlotAt = Math.ceil(Math.max(now + (1 - lane.tokens) * interval, lane.lastSlotAt + interval));
        return { reason: `not tried: ${provider} is sent at most ${round(rate)} messages a minute from ${sendingDomain} for now`, retryAt: new Date(lane.lastSlotAt) };
      }
      lane.tokens -= 1;
    }
    this.count(lane, now);
    return null;
  }

  observe(provider: string, sendingDomain: string, reply: ProviderReply): ReplyVerdict {
    const verdict = verdictOf(reply);
    const now = this.now();
    const lane = this.lane(provider, sendingDomain);
    this.roll(lane, now);
    lane.window.replies += 1;
    if (verdict !== 'ok') lane.window.deferrals += 1;
    // Only a lane in trouble is written: a healthy one costs the database nothing.
    if (verdict !== 'ok' || lane.rate !== null) lane.dirty = true;
    if (verdict === 'slow') this.slowDown(lane, now);
    else if (verdict === 'block') this.blocked(lane, reply, now);
    else if (reply.smtpCode !== undefined && reply.smtpCode < 300) this.recover(lane, now);
    return verdict;
  }

  /** Halves the lane's rate (from what it sent in the last minute when it had none), at most once per cooldown. */
  private slowDown(lane: Lane, now: number): void {
    if (lane.lastSlowAt !== null && now - lane.lastSlowAt < SLOW_COOLDOWN_MS && now >= lane.lastSlowAt) return;
    const current = this.rateOf(lane) ?? Math.max(lane.minute.sent, lane.minute.previous, MIN_RATE_PER_MINUTE);
    this.setRate(lane, Math.max(MIN_RATE_PER_MINUTE, current / 2), current, now);
  }

  private setRate(lane: Lane, rate: number, before: number, now: number): void {
    this.refill(lane, rate, now);
    lane.restoreTo ??= limitsFor(lane.provider, this.options.overrides).messagesPerMinute ?? before;
    lane.rate = rate;
    lane.tokens = Math.min(lane.tokens, burstOf(rate));
    lane.lastSlowAt = now;
    lane.lastRaiseAt = now;
    lane.dirty = true;
  }

  /** One step back up after a minute of good replies; the table's limit again once it is back where it was. */
  private recover(lane: Lane, now: number): void {
    if (lane.rate === null) return;
    if (now - Math.max(lane.lastSlowAt ?? 0, lane.lastRaiseAt) < RECOVERY_STEP_MS) return;
    this.refill(lane, lane.rate, now);
    lane.rate *= RECOVERY_FACTOR;
    lane.lastRaiseAt = now;
    if (lane.restoreTo !== null && lane.rate >= lane.restoreTo) {
      lane.rate = null;
      lane.restoreTo = null;
    }
    lane.dirty = true;
  }

  private blocked(lane: Lane, reply: ProviderReply, now: number): void {
    const sendingDomain = namesTheService(reply, this.options.mailHost) ? EVERY_DOMAIN : lane.sendingDomain;
    // After the pause, the provider is probed at the slowest rate, not at full speed.
    const current = this.rateOf(lane) ?? Math.max(lane.minute.sent, lane.minute.previous, MIN_RATE_PER_MINUTE);
    this.setRate(lane, MIN_RATE_PER_MINUTE, current, now);
    if (this.pauseOf(lane.provider, sendingDomain)) return;
    const until = new Date(now + AUTO_PAUSE_MS);
    const pause: StoredPause = { provider: lane.provider, sendingDomain, at: new Date(now), until, by: 'reply', reason: reply.text };
    this.setPause(pause);
    const key = keyOf(lane.provider, sendingDomain);
    const last = this.alerted.get(key);
    if (last !== undefined && now - last < REALERT_MS && now >= last) return;
    this.alerted.set(key, now);
    this.options.alert({ provider: lane.provider, sendingDomain: sendingDomain === EVERY_DOMAIN ? null : sendingDomain, reply: reply.text, until });
  }

  /** Records a pause here at once and in the store right after (an operator's command awaits `settled`). */
  setPause(pause: StoredPause): void {
    const key = keyOf(pause.provider, pause.sendingDomain);
    this.pauses.set(key, pause);
    this.pending.add(key);
    this.enqueue(async () => {
      await this.options.store.savePause(pause);
      this.pending.delete(key);
    });
  }

  clearPause(provider: string, sendingDomain: string): void {
    const key = keyOf(provider, sendingDomain);
    this.pauses.delete(key);
    this.pending.add(key);
    this.enqueue(async () => {
      await this.options.store.clearPause(provider, sendingDomain);
      this.pending.delete(key);
    });
  }

  /** Resolves once every write asked for so far has been made. */
  settled(): Promise<void> {
    return this.chain;
  }

  /** Writes what changed and reads the pauses other processes made (every SYNC_MS, and before a status). */
  sync(): Promise<void> {
    this.lastSync = performance.now();
    const generation = this.generation;
    this.enqueue(async () => {
      if (generation !== this.generation) return;
      const lanes = [...this.lanes.values()].filter((lane) => lane.dirty);
      for (const lane of lanes) lane.dirty = false;
      const now = this.now();
      if (lanes.length > 0) await this.options.store.saveLanes(lanes.map((lane) => ({ ...this.snapshot(lane, now) })), new Date(now));
      if (this.domainsToWrite.size > 0) {
        const domains = [...this.domainsToWrite];
        this.domainsToWrite.clear();
        await this.options.store.saveDomains(domains, new Date(now));
      }
      const stored = await this.options.store.readPauses();
      if (generation !== this.generation) return;
      const next = new Map(stored.map((pause) => [keyOf(pause.provider, pause.sendingDomain), pause]));
      for (const key of this.pending) {
        const mine = this.pauses.get(key);
        if (mine) next.set(key, mine);
        else next.delete(key);
      }
      this.pauses = next;
    });
    return this.chain;
  }

  /** Reads the pauses and adapted rates a restart must not forget (at start). */
  async load(): Promise<void> {
    for (const row of await this.options.store.readLanes()) {
      if (row.ratePerMinute === null) continue;
      const lane = this.lane(row.provider, row.sendingDomain);
      lane.rate = row.ratePerMinute;
      lane.restoreTo = limitsFor(row.provider, this.options.overrides).messagesPerMinute ?? row.ratePerMinute * 2;
      lane.tokens = burstOf(row.ratePerMinute);
    }
    this.pauses = new Map((await this.options.store.readPauses()).map((pause) => [keyOf(pause.provider, pause.sendingDomain), pause]));
  }

  /** Forgets everything held in memory (between tests, whose database is emptied). */
  reset(): void {
    this.generation += 1;
    this.lanes.clear();
    this.pauses.clear();
    this.pending.clear();
    this.domains.clear();
    this.domainsToWrite.clear();
    this.alerted.clear();
  }

  /** What a lane looks like now: its rate, and its replies and deferrals over the last window or two. */
  snapshot(lane: Lane, now = this.now()) {
    this.roll(lane, now);
    const replies = lane.window.replies + lane.window.previousReplies;
    const deferrals = lane.window.deferrals + lane.window.previousDeferrals;
    return { provider: lane.provider, sendingDomain: lane.sendingDomain, ratePerMinute: lane.rate, replies, deferrals };
  }

  allLanes(): Lane[] {
    return [...this.lanes.values()];
  }

  /** Syncs every SYNC_MS while the process delivers (a pause made elsewhere is seen without waiting for traffic). */
  start(): void {
    this.timer ??= setInterval(() => void this.sync(), SYNC_MS);
    this.timer.unref();
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sync();
  }

  private syncSoon(): void {
    if (performance.now() - this.lastSync >= SYNC_MS) void this.sync();
  }

  private enqueue(work: () => Promise<void>): void {
    this.chain = this.chain.then(work).catch((error: unknown) => this.options.fault(error));
  }

  private refill(lane: Lane, rate: number, now: number): void {
    const elapsed = Math.max(0, now - lane.refilledAt);
    lane.tokens = Math.min(burstOf(rate), (Number.isFinite(lane.tokens) ? lane.tokens : burstOf(rate)) + (elapsed * rate) / 60_000);
    lane.refilledAt = now;
  }

  private count(lane: Lane, now: number): void {
    if (now - lane.minute.start >= 60_000 || now < lane.minute.start) lane.minute = { start: now, sent: 0, previous: now - lane.minute.start < 120_000 ? lane.minute.sent : 0 };
    lane.minute.sent += 1;
  }

  private roll(lane: Lane, now: number): void {
    const { window } = lane;
    if (now - window.start < WINDOW_MS && now >= window.start) return;
    const recent = now - window.start < 2 * WINDOW_MS && now >= window.start;
    lane.window = { start: now, replies: 0, deferrals: 0, previousReplies: recent ? window.replies : 0, previousDeferrals: recent ? window.deferrals : 0 };
  }
}

const burstOf = (rate: number) => Math.max(1, (rate * BURST_SECONDS) / 60);
const round = (rate: number) => Math.round(rate * 10) / 10;
