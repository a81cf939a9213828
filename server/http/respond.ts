import type { ServerResponse } from 'node:http';
import { ERROR_STATUS, type ErrorCode } from '../errors';
import { errorBody } from './error-body';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(JSON.stringify(body));
}

export function sendError(res: ServerResponse, code: ErrorCode, error: string, headers: Record<string, string> = {}): void {
  sendJson(res, ERROR_STATUS[code], errorBody(code, error, String(res.getHeader('X-Request-Id') ?? '')), headers);
}
