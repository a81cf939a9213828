import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ZodOpenApiOperationObject } from 'zod-openapi';
import type { Deps } from '../deps';
import type { Context } from './context';
import type { Meta } from './init';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** What the REST edge hands a plain route: the request's API-key context (the procedures' own), its checked body and decoded path. */
export interface PlainRouteRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The same context a procedure gets: `authorize(ctx, meta)` admits the key, applies the rate limit and the reach. */
  ctx: Context;
  deps: Deps;
  requestId: string;
  body: unknown;
  params: Record<string, string>;
  /** Answers JSON with this status, as the procedures' answers go out (in the key's dialect). */
  json(status: number, body: unknown): Promise<void>;
}

/**
 * A REST path that trpc-to-openapi cannot express (a top-level array body, a CSV answer).
 * It still belongs in the OpenAPI document, so it carries its own operation description.
 */
export interface PlainRoute {
  method: HttpMethod;
  path: `/${string}`;
  operation: ZodOpenApiOperationObject;
  /** The same reach rules as procedures. */
  access?: Meta['access'];
  liveWrite?: boolean;
  bodyLimitBytes?: number;
  bulkBody?: boolean;
  /**
   * The route reads its own body from `req` (a multipart upload, streamed): the edge admits the
   * caller from the headers first, as for every body, and reads nothing; `body` is undefined.
   */
  streamsBody?: boolean;
  /** Refusals beyond every operation's, for the document. */
  errors?: Array<409 | 410>;
  handle(input: PlainRouteRequest): Promise<void>;
}
