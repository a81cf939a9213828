import type { ServerResponse } from 'node:http';
import { ERROR_STATUS, type ErrorCode } from '../errors';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(JSON.stringify(body));
}

export function sendError(res: ServerResponse, code: ErrorCode, error: string, headers: Record<string, string> = {}): void {
  const requestId = res.getHeader('X-Request-Id');
  const body = ERROR_STATUS[code] >= 500 ? { error, code, request_id: String(requestId) } : { error, code };
  sendJson(res, ERROR_STATUS[code], body, headers);
}
