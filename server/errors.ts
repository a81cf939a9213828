import { isDatabaseUnavailable } from '@/db/unavailable';

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
  /** Dashboard only: the organization requires two-factor sign-in and this person has not set it up. */
  TWO_FACTOR_REQUIRED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  ATTACHMENT_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  DAILY_LIMIT_EXCEEDED: 429,
  MONTHLY_LIMIT_EXCEEDED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * A refusal a client can act on, carrying the spec's code, the HTTP status and any headers
 * (Retry-After). Plain Error: services know nothing of tRPC or HTTP; the edges translate it.
 */
export class AppError extends Error {
  readonly appCode: ErrorCode;
  readonly httpStatus: number;
  readonly headers: Record<string, string>;
  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'AppError';
    this.appCode = code;
    this.httpStatus = ERROR_STATUS[code];
    this.headers = headers;
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);
export const validationError = (message: string) => new AppError('VALIDATION_ERROR', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);

/** How long a client is told to wait while the database is away: about the time it takes to come back. */
const UNAVAILABLE_RETRY_AFTER_S = 5;

/**
 * What a client is told about a failure: an AppError as it is; a database that is away (down,
 * unreachable, past the query bound) as 503 SERVICE_UNAVAILABLE with Retry-After, since trying
 * again later is the remedy; anything else is a fault of ours (null: 500, logged).
 */
export function clientErrorOf(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) {
    return new AppError('SERVICE_UNAVAILABLE', 'The database is not reachable right now; try again shortly', { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) });
  }
  return null;
}
