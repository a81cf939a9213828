/**
 * The load generator: autocannon in its own process (forked by bench/harness.ts with an IPC
 * channel), so the client's CPU is never the server's event loop. It receives one LoadJob,
 * runs a warm-up and then the measured run against one target, sends back a LoadResult and
 * exits. Every request carries the next organization's key in turn, so the rate-limit rows,
 * key lookups and lists are spread across all seeded organizations; with `requests`, each
 * request is the next of that list instead (method, path, key and body of its own).
 */
import autocannon from 'autocannon';

/** One request of a rotation: the path is appended to the job's origin. */
export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  key: string;
  /** JSON text; sent with Content-Type: application/json. */
  body?: string;
}

export interface LoadJob {
  url: string;
  keys: string[];
  /** When given, requests cycle through this list (from a random start) and `keys` is unused. */
  requests?: LoadRequest[];
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

export interface LoadSummary {
  requestsPerSecond: number;
  totalRequests: number;
  latencyP50Ms: number;
  latencyP90Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  latencyAverageMs: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  durationSeconds: number;
}

/** Sent when the warm-up is over and the measured run starts, so the parent can sample CPU. */
export type LoadPhase = { phase: 'measure' };

export type LoadResult =
  | { ok: true; warmup: LoadSummary; measured: LoadSummary; measuredCpuMs: number }
  | { ok: false; error: string };

function summarize(result: autocannon.Result): LoadSummary {
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stats.count;
  return {
    requestsPerSecond: Math.round((result.requests.total / result.duration) * 10) / 10,
    totalRequests: result.requests.total,
    latencyP50Ms: result.latency.p50,
    latencyP90Ms: result.latency.p90,
    latencyP99Ms: result.latency.p99,
    latencyMaxMs: result.latency.max,
    latencyAverageMs: result.latency.average,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    durationSeconds: result.duration,
  };
}

function fire(job: LoadJob, durationSeconds: number): Promise<autocannon.Result> {
  if (job.requests) return fireList(job, job.requests, durationSeconds);
  let next = Math.floor(Math.random() * job.keys.length);
  return autocannon({
    url: job.url,
    connections: job.connections,
    duration: durationSeconds,
    timeout: 10,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const key = job.keys[next++ % job.keys.length]!;
          request.headers.authorization = `Bearer ${key}`;
          return request;
        },
      },
    ],
  });
}

function fireList(job: LoadJob, list: LoadRequest[], durationSeconds: number): Promise<autocannon.Result> {
  let next = Math.floor(Math.random() * list.length);
  const origin = new URL(job.url).origin;
  return autocannon({
    url: origin,
    connections: job.connections,
    duration: durationSeconds,
    timeout: 10,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const item = list[next++ % list.length]!;
          request.method = item.method;
          request.path = item.path;
          request.headers.authorization = `Bearer ${item.key}`;
          if (item.body !== undefined) {
            request.headers['content-type'] = 'application/json';
            request.body = item.body;
          }
          return request;
        },
      },
    ],
  });
}

async function run(job: LoadJob): Promise<LoadResult> {
  const warmup = summarize(await fire(job, job.warmupSeconds));
  process.send!({ phase: 'measure' } satisfies LoadPhase);
  const cpuBefore = process.cpuUsage();
  const measured = summarize(await fire(job, job.durationSeconds));
  const cpu = process.cpuUsage(cpuBefore);
  return { ok: true, warmup, measured, measuredCpuMs: (cpu.user + cpu.system) / 1000 };
}

if (!process.send) {
  console.error('bench/load.ts is started by bench/run.ts (it needs an IPC channel)');
  process.exit(2);
}

process.once('message', (job: LoadJob) => {
  run(job)
    .catch((error: unknown): LoadResult => ({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }))
    .then((result) => process.send!(result, () => process.exit(0)));
});
process.on('disconnect', () => process.exit(1));
