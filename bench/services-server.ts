/**
 * Attribution target: plain node:http calling the service's own functions, on the service's own
 * runtime (drizzle over postgres-js, pool size as configured), with no tRPC and no
 * trpc-to-openapi: admitApiKey (key lookup + rate limit, one statement) -> listApiKeys -> JSON. The gap
 * between this and `bare-rl` is the data layer (drizzle, unprepared statements); the gap
 * between `rest` and this is the framework (trpc-to-openapi, tRPC, zod, the REST wrapper).
 * Started by bench/run.ts; prints `READY <port>` when listening on 127.0.0.1.
 */
import type http from 'node:http';
import { loadConfig } from '../server/config';
import { sendJson } from '../server/http/respond';
import { createRuntime, stopRuntime } from '../server/runtime';
import { parseBearer } from '../server/http/bearer';
import { admitApiKey } from '../server/services/api-keys/admission';
import { listApiKeys } from '../server/services/api-keys/keys';
import { serveTarget } from './serve-target';
import { exitWithError } from './child-failure';

async function main(): Promise<void> {
  const runtime = await createRuntime(loadConfig(process.env), { runner: false });
  const { deps } = runtime;

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/api/api-keys') return sendJson(res, 404, { error: 'Not found', code: 'NOT_FOUND' });
    const secret = parseBearer(req.headers.authorization);
    const admission = secret ? await admitApiKey(deps, secret) : null;
    if (!admission) return sendJson(res, 401, { error: 'Missing, malformed or revoked API key', code: 'UNAUTHORIZED' });
    if (admission.rateLimit && !admission.rateLimit.allowed) return sendJson(res, 429, { error: 'Rate limited', code: 'RATE_LIMITED' });
    sendJson(res, 200, { data: await listApiKeys(deps, admission.principal) });
  };

  await serveTarget('services', handle, () => stopRuntime(runtime));
}

main().catch(exitWithError);
