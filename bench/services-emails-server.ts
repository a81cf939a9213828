/**
 * Attribution target of the emails suite: plain node:http calling the service's own functions on
 * the service's own runtime (createRuntime with runner: false), without tRPC and trpc-to-openapi:
 * admitApiKey (key + rate limit), the same zod request schema, then sendEmail / sendBatch /
 * listEmails. Between `rest` and this is the framework; between this and `bare` the service's
 * checks, its history rows and its data layer.
 *
 * Started by bench/suite-emails.ts; prints `READY <port>` when listening on 127.0.0.1.
 */
import type http from 'node:http';
import { readJsonBody } from '../server/http/body';
import { loadConfig } from '../server/config';
import { sendJson } from '../server/http/respond';
import { AppError } from '../server/errors';
import { createRuntime, stopRuntime } from '../server/runtime';
import { parseBearer } from '../server/http/bearer';
import { admitApiKey } from '../server/services/api-keys/admission';
import { sendBatch, type BatchItem } from '../server/services/emails/accept/batch';
import { batchEmailBody, emailBody, toEmailInput, toSendEmailInput } from '../server/routers/emails/wire';
import { EMAIL_STATUSES } from '../server/vocabulary/email-statuses';
import { sendEmail } from '../server/services/emails/accept/send';
import { listEmails } from '../server/services/emails/read';
import { serveTarget } from './serve-target';
import { exitWithError } from './child-failure';

const batchItems = (body: unknown): BatchItem[] =>
  (body as unknown[]).map((item) => {
    const parsed = batchEmailBody.safeParse(item);
    return parsed.success ? { input: toEmailInput(parsed.data) } : { invalid: parsed.error.message };
  });

async function main(): Promise<void> {
  const runtime = await createRuntime(loadConfig(process.env), { runner: false });
  const { deps } = runtime;

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const route = `${req.method} ${url.pathname}`;
    if (route !== 'POST /api/emails' && route !== 'POST /api/emails/batch' && route !== 'GET /api/emails') return sendJson(res, 404, { error: 'Not found', code: 'NOT_FOUND' });
    const secret = parseBearer(req.headers.authorization);
    const admission = secret ? await admitApiKey(deps, secret) : null;
    if (!admission) return sendJson(res, 401, { error: 'Missing, malformed or revoked API key', code: 'UNAUTHORIZED' });
    if (admission.rateLimit && !admission.rateLimit.allowed) return sendJson(res, 429, { error: 'Rate limited', code: 'RATE_LIMITED' });
    const principal = admission.principal;
    try {
      if (route === 'GET /api/emails') {
        const q = url.searchParams;
        const page = await listEmails(deps, principal, {
          limit: Number(q.get('limit') ?? 10),
          cursor: q.get('cursor') ?? undefined,
          status: EMAIL_STATUSES.find((status) => status === q.get('status')),
          from: q.get('from') ?? undefined,
          to: q.get('to') ?? undefined,
          tag: q.getAll('tag'),
        });
        return sendJson(res, 200, { data: page.data, next_cursor: page.nextCursor });
      }
      const body = await readJsonBody(req, 16 * 1024 * 1024);
      if (route === 'POST /api/emails/batch') return sendJson(res, 200, { data: await sendBatch(deps, principal, batchItems(body), (error) => console.error(error)) });
      const input = emailBody.safeParse(body);
      if (!input.success) return sendJson(res, 422, { error: input.error.message, code: 'VALIDATION_ERROR' });
      sendJson(res, 200, await sendEmail(deps, principal, toSendEmailInput(input.data, undefined)));
    } catch (error) {
      if (error instanceof AppError) return sendJson(res, 422, { error: error.message, code: error.appCode });
      // autocannon closing its connections mid-request at the end of a run
      if ((error as NodeJS.ErrnoException).code === 'ECONNRESET') return void res.destroy();
      throw error;
    }
  };

  await serveTarget('services', handle, () => stopRuntime(runtime));
}

main().catch(exitWithError);
