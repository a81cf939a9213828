/**
 * The soak suite's load generator, in its own process (forked by bench/suite-soak.ts with an IPC
 * channel). Open loop: request i is due at start + i / rate whatever happened to the ones before,
 * so a slow server cannot lower the offered rate, and each latency runs from the request's due
 * time (not from when it got a socket), so time spent waiting behind a slow server is counted.
 * At most maxOutstanding requests are in flight; a due request that finds the cap reached is not
 * sent and counts as an error.
 *
 * It receives one SoakJob, sends { phase: 'measure' } when the warm-up is over, a progress line
 * every second, and finally one result (with every email id answered 200 when collectIds is set), then exits.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

export const OPS = ['single', 'batch', 'list', 'detail'] as const;
export type SoakOp = (typeof OPS)[number];

export interface SoakOrg {
  key: string;
  from: string;
  /** Ids this organization already has, for the first detail reads. */
  seedIds: string[];
}

export interface SoakJob {
  origin: string;
  orgs: SoakOrg[];
  rate: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Relative weights of the operations. */
  mix: Record<SoakOp, number>;
  batchSize: number;
  maxOutstanding: number;
  timeoutMs: number;
  recipientDomain: string;
  html: string;
  text: string;
  collectIds: boolean;
}

export interface OpFigures {
  count: number;
  errors: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
}

export interface PhaseFigures {
  seconds: number;
  /** Requests due in this phase (sent or refused at the cap). */
  offered: number;
  ops: Record<SoakOp, OpFigures>;
  /** Emails answered with an id. */
  accepted: number;
  errors: number;
  errorKinds: Record<string, number>;
  /** How late the generator itself fired a request at worst (its own event loop's lag). */
  maxFireLagMs: number;
  peakOutstanding: number;
  cpuMs: number;
}

export type SoakMessage =
  | { phase: 'measure' }
  /** Every second: emails answered with an id so far (both phases), requests in flight, the slowest answer since the last one. */
  | { progress: { accepted: number; outstanding: number; worstMs: number } }
  | { done: true; ok: true; warmup: PhaseFigures; measured: PhaseFigures; ids: string[]; firstErrors: string[] }
  | { done: true; ok: false; error: string };

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!);

class Phase {
  readonly latencies = Object.fromEntries(OPS.map((op) => [op, [] as number[]])) as Record<SoakOp, number[]>;
  readonly counts = Object.fromEntries(OPS.map((op) => [op, 0])) as Record<SoakOp, number>;
  readonly errorCounts = Object.fromEntries(OPS.map((op) => [op, 0])) as Record<SoakOp, number>;
  readonly errorKinds: Record<string, number> = {};
  offered = 0;
  accepted = 0;
  maxFireLagMs = 0;
  peakOutstanding = 0;
  cpu = process.cpuUsage();
  cpuMs = 0;

  constructor(readonly seconds: number) {}

  error(op: SoakOp, kind: string): void {
    this.errorCounts[op]++;
    this.errorKinds[`${op} ${kind}`] = (this.errorKinds[`${op} ${kind}`] ?? 0) + 1;
  }

  figures(): PhaseFigures {
    const ops = Object.fromEntries(
      OPS.map((op) => {
        const sorted = this.latencies[op].sort((a, b) => a - b);
        const round = (ms: number | null) => (ms === null ? null : Math.round(ms * 10) / 10);
        return [op, { count: this.counts[op], errors: this.errorCounts[op], p50Ms: round(percentile(sorted, 0.5)), p99Ms: round(percentile(sorted, 0.99)), maxMs: round(sorted.at(-1) ?? null) }];
      }),
    ) as Record<SoakOp, OpFigures>;
    const errors = OPS.reduce((sum, op) => sum + this.errorCounts[op], 0);
    return { seconds: this.seconds, offered: this.offered, ops, accepted: this.accepted, errors, errorKinds: this.errorKinds, maxFireLagMs: Math.round(this.maxFireLagMs), peakOutstanding: this.peakOutstanding, cpuMs: this.cpuMs };
  }
}

async function run(job: SoakJob): Promise<SoakMessage> {
  const pool = new Pool(job.origin, { connections: job.maxOutstanding, pipelining: 1, connect: { timeout: 10_000 } });
  const ids: string[] = [];
  const firstErrors: string[] = [];
  // Recent ids per organization: a detail read must use its own organization's key.
  const recent = job.orgs.map((org) => [...org.seedIds]);
  const remember = (org: number, id: string) => {
    if (job.collectIds) ids.push(id);
    const ring = recent[org]!;
    if (ring.length >= 512) ring[Math.floor(Math.random() * ring.length)] = id;
    else ring.push(id);
  };
  const totalWeight = OPS.reduce((sum, op) => sum + job.mix[op], 0);
  const pickOp = (): SoakOp => {
    let roll = Math.random() * totalWeight;
    for (const op of OPS) if ((roll -= job.mix[op]) < 0) return op;
    return 'single';
  };
  let emailSeq = 0;
  const email = (org: SoakOrg) => {
    const n = emailSeq++;
    return {
      from: org.from,
      to: [`soak${n}@${job.recipientDomain}`],
      subject: `Your receipt #${n}`,
      html: job.html,
      text: job.text,
      tags: [{ name: 'type', value: 'receipt' }],
    };
  };

  const warmup = new Phase(job.warmupSeconds);
  const measured = new Phase(job.durationSeconds);
  let outstanding = 0;
  let worstMs = 0;
  const noteError = (phase: Phase, op: SoakOp, kind: string, detail: string) => {
    phase.error(op, kind);
    if (firstErrors.length < 20) firstErrors.push(`${op}: ${kind} ${detail}`.slice(0, 400));
  };

  const fire = async (phase: Phase, orgIndex: number, op: SoakOp, dueAt: number) => {
    const org = job.orgs[orgIndex]!;
    let method: 'GET' | 'POST' = 'GET';
    let path = '/api/emails?limit=10';
    let body: string | undefined;
    if (op === 'single') [method, path, body] = ['POST', '/api/emails', JSON.stringify(email(org))];
    else if (op === 'batch') [method, path, body] = ['POST', '/api/emails/batch', JSON.stringify(Array.from({ length: job.batchSize }, () => email(org)))];
    else if (op === 'detail') {
      const ring = recent[orgIndex]!;
      path = `/api/emails/${ring[Math.floor(Math.random() * ring.length)]}`;
    }
    const headers: Record<string, string> = { authorization: `Bearer ${org.key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await pool.request({ method, path, headers, body, headersTimeout: job.timeoutMs, bodyTimeout: job.timeoutMs });
      const text = await response.body.text();
      const latency = performance.now() - dueAt;
      phase.latencies[op].push(latency);
      worstMs = Math.max(worstMs, latency);
      if (response.statusCode < 200 || response.statusCode > 299) {
        const code = /"code"\s*:\s*"([A-Z_]+)"/.exec(text)?.[1] ?? '';
        return noteError(phase, op, `${response.statusCode}${code ? ` ${code}` : ''}`, text.slice(0, 300));
      }
      if (op === 'single') {
        const id = (JSON.parse(text) as { id?: string }).id;
        if (!id) return noteError(phase, op, 'no id', text.slice(0, 300));
        phase.accepted++;
        remember(orgIndex, id);
      } else if (op === 'batch') {
        const outcomes = (JSON.parse(text) as { data?: Array<{ id?: string; code?: string }> }).data ?? [];
        if (outcomes.length !== job.batchSize) noteError(phase, op, 'short batch', text.slice(0, 300));
        for (const outcome of outcomes) {
          if (outcome.id) {
            phase.accepted++;
            remember(orgIndex, outcome.id);
          } else noteError(phase, op, `item ${outcome.code ?? 'error'}`, JSON.stringify(outcome));
        }
      }
    } catch (error) {
      const kind = (error as { code?: string }).code ?? (error as Error).name ?? 'error';
      noteError(phase, op, kind, String(error));
    } finally {
      outstanding--;
    }
  };

  const period = 1000 / job.rate;
  const warmupCount = Math.round(job.warmupSeconds * job.rate);
  const total = warmupCount + Math.round(job.durationSeconds * job.rate);
  const inFlight = new Set<Promise<void>>();
  const progress = setInterval(() => {
    process.send!({ progress: { accepted: warmup.accepted + measured.accepted, outstanding, worstMs: Math.round(worstMs) } } satisfies SoakMessage);
    worstMs = 0;
  }, 1_000);
  const start = performance.now();
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      for (; next < total && start + next * period <= now; next++) {
        const dueAt = start + next * period;
        if (next === warmupCount) {
          warmup.cpuMs = cpuMsSince(warmup.cpu);
          measured.cpu = process.cpuUsage();
          process.send!({ phase: 'measure' } satisfies SoakMessage);
        }
        const phase = next < warmupCount ? warmup : measured;
        phase.offered++;
        phase.maxFireLagMs = Math.max(phase.maxFireLagMs, now - dueAt);
        const op = pickOp();
        phase.counts[op]++;
        if (outstanding >= job.maxOutstanding) {
          noteError(phase, op, 'outstanding cap', `${outstanding} requests in flight`);
          continue;
        }
        outstanding++;
        phase.peakOutstanding = Math.max(phase.peakOutstanding, outstanding);
        const request = fire(phase, next % job.orgs.length, op, dueAt);
        inFlight.add(request);
        void request.finally(() => inFlight.delete(request));
      }
      if (next < total) setTimeout(tick, Math.max(0, start + next * period - performance.now()));
      else resolve();
    };
    tick();
  });
  // Everything sent gets its answer (or its timeout) before the figures are final.
  await Promise.all(inFlight);
  measured.cpuMs = cpuMsSince(measured.cpu);
  clearInterval(progress);
  await pool.close();
  return { done: true, ok: true, warmup: warmup.figures(), measured: measured.figures(), ids, firstErrors };
}

function cpuMsSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

// The suite imports this file for its types and OPS; only a forked generator runs.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!process.send) {
    console.error('bench/soak-load.ts is started by bench/suite-soak.ts (it needs an IPC channel)');
    process.exit(2);
  }
  process.once('message', (job: SoakJob) => {
    run(job)
      .catch((error: unknown): SoakMessage => ({ done: true, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }))
      .then((result) => process.send!(result, () => process.exit(0)));
  });
  process.on('disconnect', () => process.exit(1));
}
