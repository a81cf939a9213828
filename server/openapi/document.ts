import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import type { SchemaObject } from 'openapi3-ts/oas31';
import { createDocument } from 'zod-openapi';
import type { AnyTRPCRouter } from '@trpc/server';
import { ERROR_STATUS } from '../errors';
import type { PlainRoute } from '../trpc/plain-route';
import type { Meta } from '../trpc/init';
import { EVENT_DESCRIPTIONS, EVENT_TYPES } from '../vocabulary/event-types';
import { CONTENT_CHOICE, SEND_EXAMPLES } from '../routers/emails/wire';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'VALIDATION_ERROR: the body or query failed validation',
  401: 'UNAUTHORIZED: missing, malformed or revoked key',
  403: 'FORBIDDEN or another refusal code of the spec',
  404: 'NOT_FOUND: no such resource on this organization',
  405: 'METHOD_NOT_ALLOWED: the path exists with other methods',
  408: 'REQUEST_TIMEOUT: the headers or the body did not arrive in time (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection closes',
  409: 'CONFLICT',
  410: 'ATTACHMENT_EXPIRED: the attachment passed its retention',
  413: "PAYLOAD_TOO_LARGE: the body is larger than the operation's limit; the connection closes",
  414: 'URI_TOO_LONG: the path and query are longer than 8 KiB; the connection closes',
  415: 'UNSUPPORTED_MEDIA_TYPE: the body is not JSON',
  429: 'RATE_LIMITED (requests, or open connections from one address), DAILY_LIMIT_EXCEEDED or MONTHLY_LIMIT_EXCEEDED',
  431: 'HEADERS_TOO_LARGE: the request line and headers are larger than 32 KiB; the connection closes',
  500: 'INTERNAL_ERROR, with request_id',
  503: 'SERVICE_UNAVAILABLE: the database does not answer (down, unreachable or too slow); try again after Retry-After seconds',
};

const errorSchema: SchemaObject = {
  type: 'object',
  required: ['error', 'code'],
  additionalProperties: false,
  properties: {
    error: { type: 'string', description: 'Human-readable message' },
    code: { type: 'string', enum: Object.keys(ERROR_STATUS), description: 'Machine-readable code; clients branch on it' },
    request_id: { type: 'string', description: 'Present on 500 responses' },
  },
};

const errorResponse = (status: number) => ({
  description: ERROR_DESCRIPTIONS[status] ?? 'Error',
  ...(status === 503 ? { headers: { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } } } } : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** What the HTTP listener answers before any operation runs (server/http/server.ts): every path may get them. */
const EDGE_STATUSES = [408, 414, 431];

type Operation = { operationId?: string; security?: unknown; responses?: Record<string, unknown>; requestBody?: unknown; 'x-plain-route'?: boolean };

/** The send bodies, by operation: one object, or each item of a batch's array. */
const SEND_BODIES: Record<string, 'object' | 'items'> = { sendEmail: 'object', preflightEmail: 'object', sendEmailBatch: 'items', preflightEmailBatch: 'items' };

/** Adds what zod cannot say about a send body: its content choice (oneOf) and real examples. */
function describeSendBody(operation: Operation): void {
  const kind = operation.operationId ? SEND_BODIES[operation.operationId] : undefined;
  const schema = (operation.requestBody as { content?: Record<string, { schema?: Record<string, unknown> }> } | undefined)?.content?.['application/json']?.schema;
  if (!kind || !schema) return;
  if (kind === 'object') Object.assign(schema, CONTENT_CHOICE, { examples: SEND_EXAMPLES });
  else {
    Object.assign(schema.items as Record<string, unknown>, CONTENT_CHOICE);
    schema.examples = [SEND_EXAMPLES];
  }
}

/**
 * zod gives `z.number().int()` the bounds of a safe integer, ±(2^53 - 1): no rule of ours, and a
 * renderer shows -9007199254740991 as the example. A bound that says something is set in the schema.
 */
function dropSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(dropSafeIntegerBounds);
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (record.minimum === Number.MIN_SAFE_INTEGER) delete record.minimum;
  if (record.maximum === Number.MAX_SAFE_INTEGER) delete record.maximum;
  Object.values(record).forEach(dropSafeIntegerBounds);
}

/**
 * The OpenAPI 3.1.0 description: trpc-to-openapi's document for the router, the plain routes
 * added, and every operation's errors pointed at the one {error, code} schema.
 */
export function buildOpenApiDocument(router: AnyTRPCRouter, plainRoutes: PlainRoute[], options: { appUrl: string }): OpenAPIObject {
  const document = generateOpenApiDocument(router, {
    title: 'EU Mail API',
    description:
      'Transactional and broadcast email, processed and stored in the EU. Every non-2xx answer is `{error, code}`. A key created with `dialect: "resend"` reads every answer in Resend\'s shapes instead (snake_case, `object`, `{ object: "list", has_more, data }` pages, errors `{ statusCode, name, message }`), for Resend\'s SDKs; the schemas below are the spec\'s.',
    version: '1.0.0',
    openApiVersion: '3.1.0',
    baseUrl: `${options.appUrl}/api`,
    docsUrl: `${options.appUrl}/docs`,
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: eu_live_… or eu_test_…' } },
  });

  if (plainRoutes.length > 0) {
    const plainPaths: Record<string, Record<string, unknown>> = {};
    for (const route of plainRoutes) {
      plainPaths[route.path] = { ...plainPaths[route.path], [route.method.toLowerCase()]: route.operation };
    }
    const plainDocument = createDocument({ openapi: '3.1.0', info: { title: '', version: '' }, paths: plainPaths as never });
    for (const [path, item] of Object.entries(plainDocument.paths ?? {})) {
      document.paths = { ...document.paths, [path]: { ...document.paths?.[path], ...item } };
    }
    document.components = {
      ...document.components,
      schemas: { ...document.components?.schemas, ...plainDocument.components?.schemas },
    };
  }

  const metaByOperation = new Map<string, Meta>();
  for (const procedure of Object.values(router._def.procedures) as Array<{ _def: { meta?: Meta } }>) {
    const meta = procedure._def.meta;
    if (meta?.openapi?.operationId) metaByOperation.set(meta.openapi.operationId, meta);
  }

  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, value] of Object.entries(item as Record<string, Operation>)) {
      const operation = value;
      const meta = operation.operationId ? metaByOperation.get(operation.operationId) : undefined;
      const isPublic = path.startsWith('/health');
      const responses: Record<string, unknown> = {};
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (status.startsWith('2')) responses[meta?.successStatus && status === '200' ? String(meta.successStatus) : status] = response;
      }
      // Anything that reads the database answers 503 while it is away: all but liveness. Health
      // ignores its query; the listener's own refusals (slow, long or too many connections) reach every path.
      const statuses = isPublic ? [429, 500] : [400, 401, 403, 404, 429, 500, 503];
      statuses.push(...EDGE_STATUSES);
      if (!isPublic && ['post', 'patch', 'put'].includes(method)) statuses.push(413, 415);
      const plain = plainRoutes.find((route) => route.path === path && route.method.toLowerCase() === method);
      statuses.push(...(meta?.errors ?? plain?.errors ?? []));
      // Every body is strict at run time; say so where the schema's refinements hid it.
      const body = (operation.requestBody as { content?: Record<string, { schema?: Record<string, unknown> }> } | undefined)?.content?.['application/json']?.schema;
      const strictObject = body?.type === 'array' ? (body.items as Record<string, unknown> | undefined) : body;
      if (strictObject?.type === 'object' && strictObject.additionalProperties === undefined) strictObject.additionalProperties = false;
      describeSendBody(operation);
      if (path === '/health/ready') statuses.push(503);
      for (const status of statuses.sort()) responses[String(status)] = errorResponse(status);
      operation.responses = responses;
      operation.security = isPublic ? [] : [{ bearerAuth: [] }];
    }
  }

  dropSafeIntegerBounds(document);
  document.security = [{ bearerAuth: [] }];
  document.components = {
    ...document.components,
    schemas: {
      // trpc-to-openapi's own error schemas: every error here is the one Error.
      ...Object.fromEntries(Object.entries(document.components?.schemas ?? {}).filter(([name]) => !name.startsWith('error.'))),
      Error: errorSchema,
      EventType: {
        type: 'string' as const,
        enum: [...EVENT_TYPES],
        description: `What happened, as the event log records it and webhooks deliver it:\n\n${EVENT_TYPES.map((type) => `- \`${type}\`: ${EVENT_DESCRIPTIONS[type]}`).join('\n')}`,
      },
    },
  };
  return document;
}

