import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../../deps';
import { ERROR_STATUS, type ErrorCode } from '../../errors';
import { dialectOfKey } from '../../services/api-keys/admission';
import type { Dialect } from '../../vocabulary/api-keys';
import { admissionAskedFor, nodeHeader } from '../api-context';
import { parseBearer } from '../bearer';
import { sendError, sendJson } from '../respond';
import { toResendAnswer, toResendError, type AnsweredRoute } from './resend-shape';

/**
 * The dialect a REST answer is written in: the admitted key's; for a refusal made before any
 * admission (an unknown path, a method not allowed), the key's as read without admitting it.
 * Without a key, or when the key cannot be read, the spec's.
 */
export async function dialectOfRequest(deps: Deps, req: IncomingMessage): Promise<Dialect> {
  const asked = admissionAskedFor(req);
  if (asked) return (await asked.catch(() => null))?.dialect ?? 'spec';
  const secret = parseBearer(nodeHeader(req)('authorization'));
  if (!secret) return 'spec';
  return (await dialectOfKey(deps, secret).catch(() => null)) ?? 'spec';
}

/** How the REST handler answers one request: JSON or an error, in the dialect of the request's key. */
export interface Reply {
  /** The route once matched: a Resend answer is shaped by its resource. */
  route?: AnsweredRoute;
  /** A route anyone may call (health): the spec's answers, whatever key is sent, with no lookup. */
  keyless?: boolean;
  /** The request's dialect, read once. */
  dialect(): Promise<Dialect>;
  json(status: number, body: unknown, headers?: Record<string, string>): Promise<void>;
  error(code: ErrorCode, message: string, headers?: Record<string, string>): Promise<void>;
}

/**
 * The one place a REST answer's dialect is applied (docs/resend.md, "The dialect"): a key created
 * with `dialect: "resend"` reads Resend's shapes; every other caller the spec's, byte for byte.
 */
export function replyFor(deps: Deps, req: IncomingMessage, res: ServerResponse): Reply {
  let dialect: Promise<Dialect> | undefined;
  const reply: Reply = {
    dialect: () => (reply.keyless ? Promise.resolve('spec') : (dialect ??= dialectOfRequest(deps, req))),
    async json(status, body, headers) {
      if (reply.route && (await reply.dialect()) === 'resend') return sendJson(res, status, toResendAnswer(reply.route, body), headers);
      sendJson(res, status, body, headers);
    },
    async error(code, message, headers) {
      if ((await reply.dialect()) === 'resend') return sendJson(res, ERROR_STATUS[code], toResendError(code, message, String(res.getHeader('X-Request-Id') ?? '')), headers);
      sendError(res, code, message, headers);
    },
  };
  return reply;
}

/**
 * Resend's `after` (the last id of the page before) is our `cursor`, for a key of Resend's dialect;
 * for the others it stays an unknown query parameter, refused as the spec says. An operation that
 * takes `after` itself (the event log, which Resend's `events.list` reaches) keeps it.
 */
export async function resendQueryOf(reply: Reply, query: Record<string, string[]>, fields: readonly string[] = []): Promise<Record<string, string[]>> {
  if (!Object.hasOwn(query, 'after') || Object.hasOwn(query, 'cursor') || fields.includes('after') || (await reply.dialect()) !== 'resend') return query;
  const { after, ...rest } = query;
  return { ...rest, cursor: after! };
}
