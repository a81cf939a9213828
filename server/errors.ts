import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';

/** Every machine-readable code the API answers with, and its HTTP status. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  ACCOUNT_RESTRICTED: 403,
  DOMAIN_NOT_VERIFIED: 403,
  ALL_SUPPRESSED: 403,
  RECIPIENT_DOMAIN_UNDELIVERABLE: 403,
  SENDING_SUSPENDED: 403,
  SERVICE_PAUSED: 403,
  SENDER_NOT_PERMITTED: 403,
  LIST_SEND_HELD: 403,
  PLAN_LIMIT_EXCEEDED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  ATTACHMENT_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  DAILY_LIMIT_EXCEEDED: 429,
  MONTHLY_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

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
  500: 'INTERNAL_SERVER_ERROR',
  503: 'INTERNAL_SERVER_ERROR',
};

/**
 * A refusal a client can act on. It extends TRPCError so tRPC passes it through untouched,
 * and carries the spec's code, the HTTP status and any headers (Retry-After) with it.
 */
export class AppError extends TRPCError {
  readonly appCode: ErrorCode;
  readonly httpStatus: number;
  readonly headers: Record<string, string>;
  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    const status = ERROR_STATUS[code];
    super({ code: TRPC_CODE_FOR_STATUS[status] ?? 'INTERNAL_SERVER_ERROR', message });
    this.appCode = code;
    this.httpStatus = status;
    this.headers = headers;
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);
export const validationError = (message: string) => new AppError('VALIDATION_ERROR', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
