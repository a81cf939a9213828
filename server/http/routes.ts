import type { AnyTRPCProcedure, AnyTRPCRouter } from '@trpc/server';
import type { Meta } from '../trpc/init';
import type { HttpMethod, PlainRoute } from '../trpc/plain-route';
import { prepareOpenApiInput, type OpenApiInput } from './openapi-input';

export type { PlainRoute };

/** An operation of the router, found once so a request calls it without looking it up again. */
export interface ProcedureRoute {
  /** Its dotted path in the router (`emails.send`). */
  name: string;
  procedure: AnyTRPCProcedure;
  input: OpenApiInput;
}

export interface RouteEntry {
  method: HttpMethod;
  path: string;
  pattern: RegExp;
  plain?: PlainRoute;
  procedure?: ProcedureRoute;
  meta?: Meta;
}

const toPattern = (path: string) => new RegExp(`^${path.replace(/\{(.+?)\}/g, (_, key: string) => `(?<${key}>[^/]+)`)}$`);

/** Every REST operation: the router's OpenAPI procedures and the plain routes. */
export function buildRouteTable(router: AnyTRPCRouter, plainRoutes: PlainRoute[]): RouteEntry[] {
  const entries: RouteEntry[] = [];
  for (const [name, procedure] of Object.entries(router._def.procedures as Record<string, AnyTRPCProcedure>)) {
    const meta = procedure._def.meta as Meta | undefined;
    const openapi = meta?.openapi;
    if (!openapi || openapi.enabled === false) continue;
    entries.push({ method: openapi.method, path: openapi.path, pattern: toPattern(openapi.path), meta, procedure: { name, procedure, input: prepareOpenApiInput(procedure) } });
  }
  for (const plain of plainRoutes) {
    entries.push({ method: plain.method, path: plain.path, pattern: toPattern(plain.path), plain, meta: { access: plain.access, liveWrite: plain.liveWrite, bodyLimitBytes: plain.bodyLimitBytes, bulkBody: plain.bulkBody } });
  }
  // Literal segments win over parameters (/emails/batch before /emails/{id}).
  return entries.sort((a, b) => b.path.replace(/\{.+?\}/g, '').length - a.path.replace(/\{.+?\}/g, '').length);
}

type RouteMatch = { kind: 'found'; entry: RouteEntry; params: Record<string, string> } | { kind: 'method'; allow: string[] } | { kind: 'none' };

export function matchRoute(table: RouteEntry[], method: string, path: string): RouteMatch {
  const allow = new Set<string>();
  for (const entry of table) {
    const match = entry.pattern.exec(path);
    if (!match) continue;
    if (entry.method === method) return { kind: 'found', entry, params: { ...match.groups } };
    allow.add(entry.method);
  }
  return allow.size > 0 ? { kind: 'method', allow: [...allow] } : { kind: 'none' };
}
