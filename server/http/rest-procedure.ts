import type { IncomingMessage, ServerResponse } from 'node:http';
import { getTRPCErrorFromUnknown } from '@trpc/server';
import type { Deps } from '../deps';
import type { Meta } from '../trpc/init';
import { toEnvelope } from '../trpc/envelope';
import { apiContext } from './api-context';
import { restInput } from './openapi-input';
import type { Reply } from './dialect/reply';
import type { ProcedureRoute } from './routes';

/**
 * Calls the procedure a REST route matched, as trpc-to-openapi's adapter would (the same input,
 * context, middleware chain, output validation, success status and JSON answer), with the route
 * already found: a failure answers {error, code} (or the key's dialect's error: server/http/dialect/)
 * with the status and headers of its envelope, and a failure of ours (5xx) is logged with the request's id.
 */
export async function callRestProcedure(
  deps: Deps,
  req: IncomingMessage,
  res: ServerResponse,
  reply: Reply,
  requestId: string,
  route: ProcedureRoute,
  meta: Meta | undefined,
  source: { body: Record<string, unknown> } | { query: Record<string, string[]> },
  pathParams: Record<string, string>,
  logFailure: (requestId: string, error: unknown) => void,
): Promise<void> {
  try {
    const input = route.input.takesInput ? restInput(source, pathParams, route.input) : undefined;
    const data: unknown = await route.procedure({
      path: route.name,
      type: route.procedure._def.type,
      ctx: apiContext(deps, req, res, requestId),
      getRawInput: () => Promise.resolve(input),
      signal: undefined,
      batchIndex: 0,
    });
    await reply.json(meta?.successStatus ?? 200, data);
  } catch (cause) {
    const error = getTRPCErrorFromUnknown(cause);
    const envelope = toEnvelope(error);
    if (envelope.status >= 500) logFailure(requestId, error.cause ?? error);
    await reply.error(envelope.code, envelope.error, envelope.headers);
  }
}
