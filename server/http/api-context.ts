import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../deps';
import { admitApiKey } from '../services/api-keys/admission';
import { parseBearer } from './bearer';
import type { Context } from '../trpc/context';

/** The context of a request made with an API key, for procedures and plain routes alike. */
export function apiContext(deps: Deps, req: IncomingMessage, res: ServerResponse, requestId: string): Context {
  let admission: ReturnType<typeof admitApiKey> | undefined;
  return {
    deps,
    requestId,
    channel: 'api',
    authenticate: () => {
      const secret = parseBearer(req.headers.authorization);
      admission ??= secret ? admitApiKey(deps, secret) : Promise.resolve(null);
      return admission;
    },
    setHeader: (name, value) => res.setHeader(name, value),
    header: (name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    },
  };
}

