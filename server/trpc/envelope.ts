import type { TRPCError } from '@trpc/server';
import { clientErrorOf, ERROR_STATUS, type ErrorCode } from '../errors';

export interface Envelope {
  status: number;
  code: ErrorCode;
  error: string;
  headers?: Record<string, string>;
}

interface ZodLikeIssue {
  path: PropertyKey[];
  message: string;
  code?: string;
  keys?: string[];
}

/** The first few problems zod found, each with the path of the field it is about. */
export function describeIssues(issues: ZodLikeIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const where = issue.path.map(String).join('.');
      return where ? `${where}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

const isZodError = (cause: unknown): cause is { issues: ZodLikeIssue[] } =>
  cause instanceof Error && cause.name === 'ZodError' && Array.isArray((cause as { issues?: unknown }).issues);

const envelopeOf = (code: ErrorCode, error: string, headers?: Record<string, string>): Envelope => ({
  status: ERROR_STATUS[code],
  code,
  error,
  headers,
});

/** Turns any error a procedure raised into the spec's {error, code} with its HTTP status. Unknown errors never leak their message. */
export function toEnvelope(error: TRPCError): Envelope {
  const known = clientErrorOf(error.cause);
  if (known) return envelopeOf(known.appCode, known.message, known.headers);
  switch (error.code) {
    case 'BAD_REQUEST':
      return envelopeOf('VALIDATION_ERROR', isZodError(error.cause) ? describeIssues(error.cause.issues) : error.message);
    case 'PARSE_ERROR':
      return envelopeOf('VALIDATION_ERROR', 'The request body is not valid JSON');
    case 'PAYLOAD_TOO_LARGE':
      return envelopeOf('PAYLOAD_TOO_LARGE', 'The request body is too large');
    case 'UNSUPPORTED_MEDIA_TYPE':
      return envelopeOf('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json');
    case 'NOT_FOUND':
      return envelopeOf('NOT_FOUND', 'Not found');
    case 'METHOD_NOT_SUPPORTED':
      return envelopeOf('METHOD_NOT_ALLOWED', 'Method not allowed');
    case 'UNAUTHORIZED':
      return envelopeOf('UNAUTHORIZED', 'Missing, malformed or revoked API key');
    case 'FORBIDDEN':
      return envelopeOf('FORBIDDEN', 'Forbidden');
    default:
      return envelopeOf('INTERNAL_ERROR', 'Internal server error');
  }
}
