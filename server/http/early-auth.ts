import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../deps';
import { AppError, clientErrorOf } from '../errors';
import type { AccessMeta } from '../trpc/init';
import { authorize } from '../trpc/procedures';
import { apiContext } from './api-context';

/**
 * Who is asking, decided from the headers before a REST body is read: a missing or unknown key,
 * a key without the reach, or an organization past its rate limit is answered at once and the
 * connection closed, so nobody can make the process wait for (or store) a body it would refuse.
 * The admission is the request's one (admitRequestKey): the operation asks again for free.
 */
export async function authorizeBeforeBody(deps: Deps, req: IncomingMessage, res: ServerResponse, requestId: string, meta: AccessMeta | undefined): Promise<void> {
  try {
    await authorize(apiContext(deps, req, res, requestId), meta);
  } catch (error) {
    const known = clientErrorOf(error);
    // The body is never read: the connection closes after the answer (lingering: server/http/linger.ts).
    if (known) throw new AppError(known.appCode, known.message, { ...known.headers, Connection: 'close' });
    throw error;
  }
}
