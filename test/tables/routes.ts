import { randomBytes } from 'node:crypto';
import { createApiKey } from '@/server/services/api-keys';
import { registerDomain } from '@/server/services/domains';
import type { Principal } from '@/server/services/principal';
import type { TestApp } from '../support/app';

/**
 * Every authenticated REST route, written from the spec by hand (not derived from the router),
 * so the permission and cross-organization tests check the code against the contract. A route
 * the router serves that is missing here fails the coverage test: each resource adds its rows.
 */
export interface RouteCase {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** Spec: sending_access reaches only the four send paths. */
  sendingAccess: boolean;
  /** Writes state shared by live and test mode, which a test key may not change. */
  liveWrite: boolean;
  /** Makes what the route needs in the caller's organization and mode, and returns path params and body. */
  prepare?: (ctx: PrepareContext) => Promise<{ params?: Record<string, string>; body?: unknown }>;
  /** Makes a resource in another organization, for the 404 test; absent for routes without an id. */
  foreign?: (ctx: PrepareContext) => Promise<Record<string, string>>;
}

export interface PrepareContext {
  app: TestApp;
  organizationId: string;
  mode: 'live' | 'test';
}

const principalFor = (ctx: PrepareContext): Principal => ({
  organizationId: ctx.organizationId,
  permission: 'full_access',
  mode: ctx.mode,
  keyId: null,
  domainId: null,
  userId: null,
  plan: '10k',
  rateLimitOverride: null,
});

const makeKey = async (ctx: PrepareContext) =>
  (await createApiKey(ctx.app.runtime.deps, principalFor(ctx), { name: 'target', mode: ctx.mode })).id;

const makeDomain = async (ctx: PrepareContext) =>
  (await registerDomain(ctx.app.runtime.deps, { ...principalFor(ctx), mode: 'live' }, { name: `d${randomBytes(4).toString('hex')}.example.com` })).id;

const withDomain = {
  prepare: async (ctx: PrepareContext) => ({ params: { id: await makeDomain(ctx) } }),
  foreign: async (ctx: PrepareContext) => ({ id: await makeDomain(ctx) }),
};

export const ROUTES: RouteCase[] = [
  { method: 'POST', path: '/api-keys', sendingAccess: false, liveWrite: false, prepare: async () => ({ body: { name: 'matrix' } }) },
  { method: 'GET', path: '/api-keys', sendingAccess: false, liveWrite: false },
  {
    method: 'DELETE',
    path: '/api-keys/{id}',
    sendingAccess: false,
    liveWrite: false,
    prepare: async (ctx) => ({ params: { id: await makeKey(ctx) } }),
    foreign: async (ctx) => ({ id: await makeKey(ctx) }),
  },
  {
    method: 'POST',
    path: '/domains',
    sendingAccess: false,
    liveWrite: true,
    prepare: async () => ({ body: { name: `n${randomBytes(4).toString('hex')}.example.com` } }),
  },
  { method: 'GET', path: '/domains', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/domains/{id}', sendingAccess: false, liveWrite: false, ...withDomain },
  { method: 'DELETE', path: '/domains/{id}', sendingAccess: false, liveWrite: true, ...withDomain },
  { method: 'POST', path: '/domains/{id}/verify', sendingAccess: false, liveWrite: true, ...withDomain },
  { method: 'GET', path: '/domains/{id}/domain-connect', sendingAccess: false, liveWrite: false, ...withDomain },
];

export const fillPath = (path: string, params: Record<string, string> = {}) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (!value) throw new Error(`no value for {${name}} in ${path}`);
    return encodeURIComponent(value);
  });
