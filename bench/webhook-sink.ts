/**
 * The webhook receiver of the webhooks suite: a bare node:http server on 127.0.0.1 that answers
 * every request 200 "ok" as soon as its body has arrived, in a process of its own (so it shares no
 * event loop with the sender under test, and its CPU is counted apart). It counts requests and
 * tallies them by `<path> <webhook-id>`, so the driver can check that every delivery arrived
 * exactly once, and keeps the first few requests whole for a signature check.
 *
 * Forked by bench/suite-webhooks.ts with an IPC channel; sends { port } once it listens, then
 * answers each message with one message:
 *   { op: 'stats' }    counters and the tally's summary  → SinkStats
 *   { op: 'samples' }  the kept requests                  → { samples: SinkSample[] }
 *   { op: 'reset' }    zero everything                    → { ok: true }
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SinkStats {
  requests: number;
  bytes: number;
  /** TCP connections accepted since the last reset. */
  connections: number;
  /** Distinct `<path> <webhook-id>` pairs, and how many pairs came more than once. */
  distinct: number;
  repeated: number;
  /** Requests without a webhook-id header. */
  unidentified: number;
  /** Requests per path. */
  paths: Record<string, number>;
  /** ms (Date.now()) of the first and last request since the last reset. */
  firstAt: number | null;
  lastAt: number | null;
}

export interface SinkSample {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export type SinkRequest = { op: 'stats' } | { op: 'samples' } | { op: 'reset' };

const KEEP_SAMPLES = 4;

function main(): void {
  let stats: SinkStats;
  let tally: Map<string, number>;
  let samples: SinkSample[];
  const reset = () => {
    stats = { requests: 0, bytes: 0, connections: 0, distinct: 0, repeated: 0, unidentified: 0, paths: {}, firstAt: null, lastAt: null };
    tally = new Map();
    samples = [];
  };
  reset();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const id = req.headers['webhook-id'];
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const now = Date.now();
      stats.requests++;
      stats.bytes += body.length;
      stats.paths[path] = (stats.paths[path] ?? 0) + 1;
      stats.firstAt ??= now;
      stats.lastAt = now;
      if (typeof id === 'string') {
        const key = `${path} ${id}`;
        const seen = tally.get(key) ?? 0;
        tally.set(key, seen + 1);
        if (seen === 0) stats.distinct++;
        else if (seen === 1) stats.repeated++;
      } else stats.unidentified++;
      if (samples.length < KEEP_SAMPLES) samples.push({ path, headers: req.headers as Record<string, string>, body: body.toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
      res.end('ok');
    });
  });
  server.on('connection', () => stats.connections++);
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 100).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);

  process.on('message', (request: SinkRequest) => {
    switch (request.op) {
      case 'stats':
        return process.send!(stats);
      case 'samples':
        return process.send!({ samples });
      case 'reset':
        reset();
        return process.send!({ ok: true });
    }
  });
}

main();
