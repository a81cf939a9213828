import { ERROR_STATUS, type ErrorCode } from '../../errors';
import { OPAQUE_FIELDS, RESEND_ERROR_NAMES, RESEND_RESOURCES, type ResendResource } from './resend-resources';

/** The route an answer is for: its template (`/contacts/{idOrEmail}`), method and decoded path parameters. */
export interface AnsweredRoute {
  path: string;
  method: string;
  params: Record<string, string>;
}

// Longest prefix first, so /contacts/{idOrEmail}/topics is found before /contacts.
const BY_LENGTH = [...RESEND_RESOURCES].sort((a, b) => b.path.length - a.path.length);

export function resendResourceOf(routePath: string): ResendResource | undefined {
  return BY_LENGTH.find((resource) => routePath === resource.path || routePath.startsWith(`${resource.path}/`));
}

/** `createdAt` → `created_at`, `nextCursor` → `next_cursor`; a name already in snake_case stays. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every field name in snake_case, at every depth, but the values of the customer's own maps. */
function snakeDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeDeep);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) out[snakeCase(key)] = OPAQUE_FIELDS.has(key) ? field : snakeDeep(field);
  return out;
}

/** One of the resource's records (or any object answered for it): its renames and copies, the rest converted. */
function recordOf(value: unknown, resource: ResendResource | undefined): unknown {
  if (!isRecord(value)) return snakeDeep(value);
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const converted = OPAQUE_FIELDS.has(key) || resource?.opaque?.includes(key) ? field : snakeDeep(field);
    out[resource?.renames?.[key] ?? snakeCase(key)] = converted;
    const copy = resource?.copies?.[key];
    if (copy !== undefined && !Object.hasOwn(value, copy)) out[copy] = converted;
  }
  return out;
}

/** A `{ data: [...] }` answer with at most a cursor (and the event log's `hasMore`) beside it. */
function isPage(body: Record<string, unknown>): boolean {
  return Array.isArray(body.data) && Object.keys(body).every((key) => key === 'data' || key === 'nextCursor' || key === 'next_cursor' || key === 'hasMore');
}

/** The path parameter that names the record a route acts on: its last one. */
const lastParam = (route: AnsweredRoute): string | undefined => {
  const names = [...route.path.matchAll(/\{(.+?)\}/g)].map((match) => match[1]!);
  const last = names.at(-1);
  return last === undefined || !route.path.endsWith(`{${last}}`) ? undefined : route.params[last];
};

/**
 * A success answer in Resend's shape: a page as `{ object: "list", has_more, data }` (the cursor
 * kept as `next_cursor`, which is the `after` of the next page), a record with its resource's
 * `object` first, a deletion as `{ object, id, deleted: true }`, every field in snake_case.
 */
export function toResendAnswer(route: AnsweredRoute, body: unknown): unknown {
  const resource = resendResourceOf(route.path);
  if (!isRecord(body)) return snakeDeep(body);
  if (isPage(body) && !resource?.notPage) {
    const cursor = (body.nextCursor ?? body.next_cursor ?? null) as string | null;
    // The event log says itself whether more follows (its cursor is always the page's last id).
    const more = typeof body.hasMore === 'boolean' ? body.hasMore : cursor !== null;
    return { object: 'list', has_more: more, data: (body.data as unknown[]).map((item) => recordOf(item, resource)), next_cursor: cursor };
  }
  if (resource?.notPage) return { data: (body.data as unknown[]).map((item) => snakeDeep(item)) };
  const record = recordOf(body, resource) as Record<string, unknown>;
  const removed = route.method === 'DELETE' ? lastParam(route) : undefined;
  if (removed !== undefined) return { object: resource?.object, id: removed, ...record, deleted: true };
  if (resource && typeof record.id === 'string') return { object: resource.object, ...record };
  // An action on one record (`POST /domains/{id}/verify`, `GET /webhooks/{id}/secret`) answers
  // without its id here; Resend's answers name the record, and its SDK's callers read `id`.
  const acted = resource && route.params.id !== undefined && route.path.startsWith(`${resource.path}/{id}`) ? route.params.id : undefined;
  if (acted !== undefined) return { object: resource!.object, id: acted, ...record };
  return record;
}

/** Resend's error body, `{ statusCode, name, message }`, as their SDK hands it to the caller; a 5xx keeps its request id. */
export function toResendError(code: ErrorCode, message: string, requestId: string): Record<string, unknown> {
  const statusCode = ERROR_STATUS[code];
  const body: Record<string, unknown> = { statusCode, name: RESEND_ERROR_NAMES[code] ?? code.toLowerCase(), message };
  if (statusCode >= 500) body.request_id = requestId;
  return body;
}
