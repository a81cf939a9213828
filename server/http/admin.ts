import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { runAdminCommand, type AdminArgs } from '../admin/commands';
import type { Deps } from '../deps';
import { clientErrorOf } from '../errors';
import { readJsonBody } from './body';
import { sendError, sendJson } from './respond';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The operator CLI's way in while the server holds the embedded database: loopback only, and a
 * token that only someone who can read DATA_DIR has.
 */
export async function handleAdmin(req: IncomingMessage, res: ServerResponse, deps: Deps, token: string): Promise<void> {
  if (!LOOPBACK.has(req.socket.remoteAddress ?? '') || !sameToken(String(req.headers['x-admin-token'] ?? ''), token)) {
    return sendError(res, 'NOT_FOUND', 'Not found');
  }
  if (req.method !== 'POST') return sendError(res, 'METHOD_NOT_ALLOWED', 'Use POST', { Allow: 'POST' });
  try {
    const body = (await readJsonBody(req, 65_536)) as { command?: string; args?: AdminArgs };
    sendJson(res, 200, await runAdminCommand(deps, String(body.command ?? ''), body.args ?? {}));
  } catch (error) {
    const known = clientErrorOf(error);
    if (known) return sendError(res, known.appCode, known.message, known.headers);
    deps.log.error({ err: error, command: 'admin' }, 'admin command failed');
    sendError(res, 'INTERNAL_ERROR', 'Internal server error');
  }
}
