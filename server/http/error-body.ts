import { ERROR_STATUS, type ErrorCode } from '../errors';

/** The spec's error body; a 5xx also names the request, so a report can be traced in the logs. */
interface ErrorBody {
  error: string;
  code: ErrorCode;
  request_id?: string;
}

/** The one place an error body is built: REST, plain routes, the admin endpoint and Next's route handlers. */
export function errorBody(code: ErrorCode, error: string, requestId: string): ErrorBody {
  return ERROR_STATUS[code] >= 500 ? { error, code, request_id: requestId } : { error, code };
}

/** An error body as a fetch Response, for Next's route handlers. */
export function errorResponse(code: ErrorCode, error: string, requestId: string, headers: Record<string, string> = {}): Response {
  return Response.json(errorBody(code, error, requestId), { status: ERROR_STATUS[code], headers });
}
