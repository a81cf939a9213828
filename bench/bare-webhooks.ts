/**
 * The webhook floor: bare undici POSTs of a body as large as the service's to the same loopback
 * receiver, with no database, no claims and no outcome records. One undici `Pool` of `concurrency`
 * connections and as many requests in flight; each request reads its whole answer. Optionally
 * each request is also signed with standardwebhooks (`sign`), and its host resolved first, A and
 * AAAA, as the service does before every attempt (`resolve`): with a fresh c-ares resolver per
 * request, or with one kept for the run as the service keeps one per DNS_SERVERS list.
 *
 * Forked by bench/suite-webhooks.ts: answers { op: 'run', ... } (BareWebhookJob) with BareWebhookRun.
 */
import { Resolver } from 'node:dns/promises';
import { Webhook } from 'standardwebhooks';
import { Pool } from 'undici';
import { exitWithError } from './child-failure';

export interface BareWebhookJob {
  op: 'run';
  count: number;
  port: number;
  path: string;
  concurrency: number;
  body: string;
  /** Sent on every request; webhook-id (and, signing, the timestamp and signature) are set per request. */
  headers: Record<string, string>;
  /** A whsec_ secret: sign every request with it. */
  sign: string | null;
  /** Resolve this host (A + AAAA) through these servers before every request: with a fresh resolver, or one kept for the run. */
  resolve: { host: string; dnsServers: string[]; oneResolver: boolean } | null;
  /** Prefix of each request's webhook-id (unique per run, so the receiver's tally holds). */
  idPrefix: string;
}

export interface BareWebhookRun {
  sent: number;
  failed: number;
  non2xx: number;
  ms: number;
  /** Per request, from before the lookup (if any) to the last byte of the answer. */
  p50Ms: number;
  p99Ms: number;
  firstError: string | null;
}

async function run(job: BareWebhookJob): Promise<BareWebhookRun> {
  const pool = new Pool(`http://127.0.0.1:${job.port}`, { connections: job.concurrency });
  const signer = job.sign ? new Webhook(job.sign) : null;
  const newResolver = (servers: string[]) => {
    const resolver = new Resolver({ timeout: 3_000, tries: 2 });
    resolver.setServers(servers);
    return resolver;
  };
  const kept = job.resolve?.oneResolver ? newResolver(job.resolve.dnsServers) : null;
  const result: BareWebhookRun = { sent: 0, failed: 0, non2xx: 0, ms: 0, p50Ms: 0, p99Ms: 0, firstError: null };
  const took = new Float64Array(job.count);
  const sendOne = async (i: number) => {
    const at = performance.now();
    try {
      if (job.resolve) {
        const resolver = kept ?? newResolver(job.resolve.dnsServers);
        const [v4] = await Promise.allSettled([resolver.resolve4(job.resolve.host), resolver.resolve6(job.resolve.host)]);
        if (v4.status !== 'fulfilled' || v4.value[0] !== '127.0.0.1') throw new Error(`${job.resolve.host} did not resolve to 127.0.0.1`);
      }
      const id = `${job.idPrefix}${i}`;
      const headers: Record<string, string> = { ...job.headers, 'webhook-id': id };
      if (signer) {
        const at = new Date();
        headers['webhook-timestamp'] = String(Math.floor(at.getTime() / 1000));
        headers['webhook-signature'] = signer.sign(id, at, job.body);
      }
      const response = await pool.request({ path: job.path, method: 'POST', headers, body: job.body });
      await response.body.arrayBuffer();
      if (response.statusCode >= 200 && response.statusCode < 300) result.sent++;
      else result.non2xx++;
      took[i] = performance.now() - at;
    } catch (error) {
      result.failed++;
      result.firstError ??= error instanceof Error ? error.message : String(error);
    }
  };
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < job.count; i = next++) await sendOne(i);
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: job.concurrency }, lane));
  result.ms = performance.now() - started;
  took.sort();
  result.p50Ms = took[Math.floor(job.count * 0.5)] ?? 0;
  result.p99Ms = took[Math.min(job.count - 1, Math.floor(job.count * 0.99))] ?? 0;
  await pool.close();
  return result;
}

process.on('message', (job: BareWebhookJob) => {
  run(job)
    .then((result) => process.send!(result))
    .catch(exitWithError);
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
process.send!({ ready: true });
