import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Log } from '../log';
import type { Context } from '../trpc/context';
import { whenDone } from './when-done';

/** What the access log line says of a request, filled in as the request goes. */
interface RequestFacts {
  organizationId?: string;
  keyId?: string;
}

const FACTS = Symbol('eumail.request-facts');
type WithFacts = IncomingMessage & { [FACTS]?: RequestFacts };

const factsOf = (req: IncomingMessage): RequestFacts => ((req as WithFacts)[FACTS] ??= {});

/** The context as given, remembering on the request whom its authentication admitted, for the log line. */
export function notingCaller(req: IncomingMessage, context: Context): Context {
  const authenticate = context.authenticate;
  return {
    ...context,
    authenticate: async () => {
      const admission = await authenticate();
      if (admission) {
        const facts = factsOf(req);
        facts.organizationId = admission.principal.organizationId;
        if (admission.principal.keyId) facts.keyId = admission.principal.keyId;
      }
      return admission;
    },
  };
}

/**
 * One line per request once its answer is out (or the client went away): method, path without
 * the query (it may hold addresses), status, duration and, when a caller was admitted, its
 * organization. 5xx lines are errors; the failure itself is logged where it was caught.
 */
export function logWhenDone(log: Log, req: IncomingMessage, res: ServerResponse, requestId: string, path: string): void {
  whenDone(res, ({ status, elapsedMs }) => {
    const facts = factsOf(req);
    const line = {
      requestId,
      method: req.method,
      // A tracking token names an email: the log keeps that it was a pixel or a click, not which.
      // An unsubscribe token names a person: left out. So is an address in the path
      // (DELETE /suppressions/ada%40example.com): personal data.
      path: path.startsWith('/t/')
        ? path.replace(/^(\/t\/[^/]+\/).+$/, '$1…')
        : path.startsWith('/unsubscribe/')
          ? '/unsubscribe/…'
          : path.replace(/[^/]*(?:@|%40)[^/]*/gi, '…'),
      status,
      durationMs: Math.round(elapsedMs * 10) / 10,
      ...facts,
    };
    if (line.status >= 500) log.error(line, 'request');
    else log.info(line, 'request');
  });
}
