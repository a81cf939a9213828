import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { clientErrorOf } from '../errors';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Context } from './context';
import { toEnvelope } from './envelope';

export type AccessMeta = {
  /** HTTP status of success; 200 unless the spec says 201 (202: Resend's answer to an event sent, whose runs go on after it). */
  successStatus?: 200 | 201 | 202;
  /** 'sending': a sending_access key may call it (the four send paths). Default: full_access only. */
  access?: 'sending';
  /** Changes state shared by live and test mode, which a test key may not touch. */
  liveWrite?: boolean;
  /** Its own body bound (server/trpc/request-limits.ts: sends with attachments, template and broadcast content). */
  bodyLimitBytes?: number;
  /** A list of many items in one body: up to BODY_LIMIT_BYTES rather than the 64 KiB of a plain operation. */
  bulkBody?: boolean;
  /** A top-level JSON array body is read as this field of the object body (Resend's form of the same request). */
  arrayBodyField?: string;
  /** Dashboard only: callable by a person whose organization requires two-factor sign-in before they set it up (the set-up itself). */
  beforeTwoFactor?: boolean;
  /** Refusals this operation answers beyond every operation's (400, 401, 403, 404, 429, 500; 413 and 415 with a body): for the document. */
  errors?: Array<409 | 410>;
};

export type Meta = OpenApiMeta<AccessMeta>;

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error, ctx }) {
      const envelope = toEnvelope(error);
      // The envelope is what REST answers with (its headers go on the response, not into the
      // body); the stack never leaves the process. A failure of ours names the request, as REST's
      // 5xx bodies do, so the operator can find it in the log.
      const { status, code, error: message } = envelope;
      const requestId = status >= 500 ? ctx?.requestId : undefined;
      return { ...shape, message, data: { code: shape.data.code, httpStatus: status, path: shape.data.path, envelope: { status, code, error: message }, requestId } };
    },
  });

const TRPC_CODE_FOR_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  410: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

/** Gives a service's AppError (or a database that is away) the matching tRPC code, so the dashboard's client sees the right status too. */
const translateAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  const cause = result.ok ? null : clientErrorOf(result.error.cause);
  if (!result.ok && cause) {
    return { ...result, error: new TRPCError({ code: TRPC_CODE_FOR_STATUS[cause.httpStatus] ?? 'INTERNAL_SERVER_ERROR', message: cause.message, cause }) };
  }
  return result;
});

export const router = t.router;
export const middleware = t.middleware;
export const publicProcedure = t.procedure.use(translateAppErrors);
export const createCallerFactory = t.createCallerFactory;
