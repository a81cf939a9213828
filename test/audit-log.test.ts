import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, members } from '@/db/schema';
import { runAdminCommand } from '@/server/admin/commands';
import { recordAudit, OPERATOR } from '@/server/services/audit/record';
import { AUDIT_RETENTION_DAYS } from '@/server/services/audit/retention';
import { applyRetention } from '@/server/services/emails/retention';
import { DAY_MS } from '@/server/services/shared/time';
import { startTestApp, type TestApp } from './support/app';

// The listener trusts loopback as a proxy here, so each request says which client it forwards
// (X-Forwarded-For) and the log must show that address, never one the client claims for itself.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { TRUSTED_PROXY_CIDRS: '127.0.0.1/32', WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8' } });
});
afterAll(() => app.close());
beforeEach(async () => {
  await app.reset();
  app.dns.a('hooks.example.com', '127.0.0.1');
});

const deps = () => app.runtime.deps;
const PASSWORD = 'correct horse battery';
const ORIGIN = 'http://127.0.0.1:3000';
const from = (address: string, userAgent = 'audit-test/1.0') => ({ 'x-forwarded-for': address, 'user-agent': userAgent });

interface Person {
  email: string;
  cookie: string;
  userId: string;
  organizationId: string;
}

async function auth(path: string, body: Record<string, string>, address: string): Promise<Response> {
  return fetch(`${app.url}/api/auth/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN, ...from(address) }, body: JSON.stringify(body) });
}

async function trpc(cookie: string | null, kind: 'query' | 'mutation', path: string, input: unknown, headers: Record<string, string> = from('198.51.100.1')) {
  const url = kind === 'query' ? `${app.url}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}` : `${app.url}/api/trpc/${path}`;
  const response = await fetch(url, {
    method: kind === 'query' ? 'GET' : 'POST',
    headers: { ...(cookie ? { cookie } : {}), 'content-type': 'application/json', ...headers },
    body: kind === 'mutation' ? JSON.stringify(input) : undefined,
  });
  const body = await response.json();
  return { status: response.status, body, data: body.result?.data };
}

async function signUp(email: string, address: string): Promise<Person> {
  const response = await auth('sign-up/email', { name: 'Ada', email, password: PASSWORD }, address);
  expect(response.status, await response.clone().text()).toBe(200);
  const cookie = response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const { user } = await response.json();
  const organization = await trpc(cookie, 'query', 'organization.current', {});
  return { email, cookie, userId: user.id, organizationId: organization.data.id };
}

type AuditPage = { data: Array<Record<string, any>>; next_cursor: string | null };
const readLog = async (person: Person, input: Record<string, unknown> = {}): Promise<AuditPage> => {
  const response = await trpc(person.cookie, 'query', 'auditLog.list', input);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.data;
};

/** An organization's rows in time order, straight from the table (organizations made by the operator have no owner to read them). */
const rowsOf = (organizationId: string) => deps().db.select().from(auditEvents).where(eq(auditEvents.organizationId, organizationId)).orderBy(asc(auditEvents.occurredAt), asc(auditEvents.id));

describe('the audit log records', () => {
  it('a person signing up, creating and revoking a key: who, when (the clock), from which address and browser', async () => {
    app.clock.set('2026-03-01T09:00:00.000Z');
    const ada = await signUp('ada@audit.test', '203.0.113.7');
    app.clock.set('2026-03-01T09:05:00.000Z');
    const created = await trpc(ada.cookie, 'mutation', 'apiKeys.create', { name: 'Production' }, from('203.0.113.8', 'Firefox/140'));
    expect(created.status).toBe(200);
    app.clock.set('2026-03-01T09:10:00.000Z');
    expect((await trpc(ada.cookie, 'mutation', 'apiKeys.revoke', { id: created.data.id }, from('203.0.113.9'))).status).toBe(200);

    const { data, next_cursor } = await readLog(ada);
    expect(next_cursor).toBeNull();
    const user = { kind: 'user', id: ada.userId, label: 'ada@audit.test' };
    const key = { type: 'api_key', id: created.data.id, label: `Production (${created.data.tokenStart}…)` };
    expect(data).toEqual([
      { id: expect.any(String), occurredAt: '2026-03-01T09:10:00.000Z', actor: user, action: 'api_key.revoked', target: key, clientAddress: '203.0.113.9', userAgent: 'audit-test/1.0', details: { mode: 'live' } },
      {
        id: expect.any(String),
        occurredAt: '2026-03-01T09:05:00.000Z',
        actor: user,
        action: 'api_key.created',
        target: key,
        clientAddress: '203.0.113.8',
        userAgent: 'Firefox/140',
        details: { permission: 'full_access', mode: 'live', domainId: null },
      },
      {
        id: expect.any(String),
        occurredAt: '2026-03-01T09:00:00.000Z',
        actor: user,
        action: 'user.signed_in',
        target: { type: 'user', id: ada.userId, label: 'ada@audit.test' },
        clientAddress: '203.0.113.7',
        userAgent: 'audit-test/1.0',
        details: { via: '/sign-up/email' },
      },
    ]);
  });

  it('sign-ins and refused passwords for an existing account; an unknown address belongs to no organization', async () => {
    const ada = await signUp('ada@audit.test', '203.0.113.7');
    app.clock.advance(60_000);
    expect((await auth('sign-in/email', { email: 'ada@audit.test', password: 'not the password' }, '192.0.2.66')).status).toBe(401);
    expect((await auth('sign-in/email', { email: 'nobody@audit.test', password: 'not the password' }, '192.0.2.66')).status).toBe(401);
    app.clock.advance(60_000);
    expect((await auth('sign-in/email', { email: 'ADA@audit.test', password: PASSWORD }, '192.0.2.10')).status).toBe(200);

    const { data } = await readLog(ada);
    expect(data.map((row) => [row.action, row.clientAddress, row.details])).toEqual([
      ['user.signed_in', '192.0.2.10', { via: '/sign-in/email' }],
      ['user.sign_in_failed', '192.0.2.66', { reason: 'INVALID_EMAIL_OR_PASSWORD' }],
      ['user.signed_in', '203.0.113.7', { via: '/sign-up/email' }],
    ]);
    expect(data[1]).toMatchObject({ actor: { kind: 'user', id: ada.userId, label: 'ada@audit.test' }, target: { type: 'user', id: ada.userId } });
    expect(await deps().db.select().from(auditEvents)).toHaveLength(3);
  });

  it('changes made with an API key, each in its own request: keys, webhooks and a domain with the keys pinned to it', async () => {
    const { organizationId, apiKey } = await app.createOrg();
    const headers = from('198.51.100.20', 'curl/8.5');
    const call = async (method: string, path: string, body?: unknown) => {
      app.clock.advance(1_000);
      const response = await app.request(method, path, { key: apiKey, body, headers });
      expect(response.status, response.text).toBeLessThan(300);
      return response.body;
    };
    const second = await call('POST', '/api/api-keys', { name: 'Second' });
    await call('DELETE', `/api/api-keys/${second.id}`);
    const hook = await call('POST', '/api/webhooks', { url: 'http://hooks.example.com:9/a', events: ['email.bounced'] });
    await call('PATCH', `/api/webhooks/${hook.id}`, { url: 'http://hooks.example.com:9/b' });
    await call('PATCH', `/api/webhooks/${hook.id}`, { url: 'http://hooks.example.com:9/b' });
    await call('POST', `/api/webhooks/${hook.id}/rotate-secret`);
    await call('GET', `/api/webhooks/${hook.id}/secret`);
    await call('DELETE', `/api/webhooks/${hook.id}`);
    const domain = await call('POST', '/api/domains', { name: 'mail.acme.example.com' });
    const pinned = await call('POST', '/api/api-keys', { name: 'Pinned', permission: 'sending_access', domain_id: domain.id });
    await call('DELETE', `/api/domains/${domain.id}`);

    const rows = await rowsOf(organizationId);
    const [defaultKey] = rows;
    // org:create is the operator's: its first key is recorded without an actor or an address.
    expect(defaultKey).toMatchObject({ action: 'api_key.created', actorKind: 'operator', actorId: null, clientAddress: null, targetLabel: expect.stringMatching(/^Default key \(eu_live_/) });
    const byKey = rows.slice(1);
    expect(byKey.map((row) => [row.action, row.targetLabel, row.details])).toEqual([
      ['api_key.created', expect.stringMatching(/^Second \(eu_live_/), { permission: 'full_access', mode: 'live', domainId: null }],
      ['api_key.revoked', expect.stringMatching(/^Second \(/), { mode: 'live' }],
      ['webhook.created', 'http://hooks.example.com:9/a', { events: ['email.bounced'] }],
      ['webhook.updated', 'http://hooks.example.com:9/b', { url: { from: 'http://hooks.example.com:9/a', to: 'http://hooks.example.com:9/b' } }],
      // The second PATCH changed nothing and reading the secret is a read: neither is recorded.
      ['webhook.secret_rotated', 'http://hooks.example.com:9/b', { mode: 'live' }],
      ['webhook.deleted', 'http://hooks.example.com:9/b', {}],
      ['domain.created', 'mail.acme.example.com', { openTracking: false, clickTracking: false }],
      ['api_key.created', expect.stringMatching(/^Pinned \(/), { permission: 'sending_access', mode: 'live', domainId: domain.id }],
      ['api_key.revoked', expect.stringMatching(/^Pinned \(/), { mode: 'live', reason: 'domain_deleted', domainId: domain.id }],
      ['domain.deleted', 'mail.acme.example.com', {}],
    ]);
    expect(byKey.find((row) => row.action === 'api_key.revoked' && row.targetId === pinned.id)).toBeDefined();
    for (const row of byKey) {
      expect(row).toMatchObject({ actorKind: 'api_key', actorId: defaultKey!.targetId, actorLabel: defaultKey!.targetLabel, clientAddress: '198.51.100.20', userAgent: 'curl/8.5' });
    }
  });

  it("the operator's plan, status, overage, review and rate-limit changes, from and to; a change to the same value is none", async () => {
    const { organizationId } = await app.createOrg({ plan: '10k', name: 'Acme' });
    app.clock.set('2026-11-16T00:00:00.000Z');
    await runAdminCommand(deps(), 'org:plan', { org: organizationId, plan: '50k' });
    await runAdminCommand(deps(), 'org:status', { org: organizationId, status: 'restricted' });
    await runAdminCommand(deps(), 'org:status', { org: organizationId, status: 'restricted' });
    await runAdminCommand(deps(), 'org:overage', { org: organizationId, on: true });
    await runAdminCommand(deps(), 'org:review', { org: organizationId, approve: true });
    await runAdminCommand(deps(), 'org:rate-limit', { org: organizationId, limit: '500' });
    await runAdminCommand(deps(), 'org:rate-limit', { org: organizationId, default: true });

    const rows = (await rowsOf(organizationId)).filter((row) => row.action.startsWith('organization.'));
    expect(rows.map((row) => [row.action, row.details])).toEqual([
      ['organization.plan_changed', { kind: 'upgrade', from: '10k', to: '50k', effectiveAt: '2026-11-16T00:00:00.000Z', proratedChargeEurCents: expect.any(Number) }],
      ['organization.status_changed', { from: 'active', to: 'restricted' }],
      ['organization.overage_changed', { from: false, to: true }],
      ['organization.review_changed', { from: false, to: true }],
      ['organization.rate_limit_changed', { from: null, to: 500 }],
      ['organization.rate_limit_changed', { from: 500, to: null }],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ actorKind: 'operator', actorId: null, actorLabel: null, clientAddress: null, userAgent: null, targetType: 'organization', targetId: organizationId, targetLabel: 'Acme' });
      expect(row.occurredAt).toEqual(new Date('2026-11-16T00:00:00.000Z'));
    }
  });

  it("the owner's own plan request, its withdrawal and overage changes in the dashboard, as theirs", async () => {
    const ada = await signUp('ada@audit.test', '203.0.113.7');
    expect((await trpc(ada.cookie, 'mutation', 'organization.changePlan', { plan: '10k' })).status).toBe(200);
    expect((await trpc(ada.cookie, 'mutation', 'organization.withdrawPlanRequest', {})).status).toBe(200);
    expect((await trpc(ada.cookie, 'mutation', 'usage.setOverage', { enabled: true })).status).toBe(200);
    const { data } = await readLog(ada, { group: 'organization' });
    expect(data.map((row) => [row.action, row.actor.kind, row.actor.id, row.clientAddress])).toEqual([
      ['organization.overage_changed', 'user', ada.userId, '198.51.100.1'],
      ['organization.plan_request_withdrawn', 'user', ada.userId, '198.51.100.1'],
      ['organization.plan_requested', 'user', ada.userId, '198.51.100.1'],
    ]);
  });

  it('the address the trusted proxy saw, not one the client put in the header chain or in the internal header', async () => {
    const { organizationId, apiKey } = await app.createOrg();
    await app.request('POST', '/api/api-keys', {
      key: apiKey,
      body: { name: 'Spoofed' },
      headers: { 'x-forwarded-for': '10.9.9.9, 203.0.113.50', 'x-eumail-client-address': '10.1.1.1' },
    });
    const rows = await rowsOf(organizationId);
    expect(rows.at(-1)).toMatchObject({ action: 'api_key.created', clientAddress: '203.0.113.50' });
  });

  it('nothing for a change that did not happen', async () => {
    const { organizationId, apiKey } = await app.createOrg();
    expect((await app.request('DELETE', '/api/api-keys/0190d7e2-0000-7000-8000-000000000000', { key: apiKey })).status).toBe(404);
    expect((await app.request('DELETE', '/api/webhooks/0190d7e2-0000-7000-8000-000000000000', { key: apiKey })).status).toBe(404);
    expect((await rowsOf(organizationId)).map((row) => row.action)).toEqual(['api_key.created']);
  });
});

describe('reading the audit log', () => {
  it("shows each owner their own organization's rows only; another's cursor finds nothing", async () => {
    const ada = await signUp('ada@audit.test', '203.0.113.7');
    const bob = await signUp('bob@audit.test', '203.0.113.8');
    await trpc(bob.cookie, 'mutation', 'apiKeys.create', { name: 'Bob key' });
    const adas = await readLog(ada);
    const bobs = await readLog(bob);
    expect(adas.data.map((row) => row.action)).toEqual(['user.signed_in']);
    expect(adas.data[0]!.actor.label).toBe('ada@audit.test');
    expect(bobs.data.map((row) => row.action)).toEqual(['api_key.created', 'user.signed_in']);
    expect(bobs.data.every((row) => row.actor.label === 'bob@audit.test')).toBe(true);
    expect((await readLog(ada, { cursor: bobs.data[0]!.id })).data).toEqual([]);
  });

  it('is refused to an API key, to a member who is not the owner, and without a session; REST has no path for it', async () => {
    const ada = await signUp('ada@audit.test', '203.0.113.7');
    const created = await trpc(ada.cookie, 'mutation', 'apiKeys.create', { name: 'Full' });
    const byKey = await trpc(null, 'query', 'auditLog.list', {}, { authorization: `Bearer ${created.data.key}` });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.message).toMatch(/owner/);

    const carol = await signUp('carol@audit.test', '203.0.113.9');
    await deps().db.update(members).set({ organizationId: ada.organizationId, role: 'developer' }).where(eq(members.userId, carol.userId));
    const asMember = await trpc(carol.cookie, 'query', 'auditLog.list', {});
    expect(asMember.status).toBe(403);
    expect(asMember.body.error.message).toMatch(/owner/);

    expect((await trpc(null, 'query', 'auditLog.list', {})).status).toBe(401);
    expect((await app.request('GET', '/api/audit-log', { key: created.data.key })).status).toBe(404);
    expect((await app.request('GET', '/api/audit-events', { key: created.data.key })).status).toBe(404);
  });

  it('pages newest first by the time of the change (not the order of the ids), and filters by kind', async () => {
    const ada = await signUp('ada@audit.test', '203.0.113.7');
    // Written out of time order, so ids and times disagree.
    const times = ['2026-05-03', '2026-05-01', '2026-05-05', '2026-05-02', '2026-05-04'];
    for (const [index, day] of times.entries()) {
      app.clock.set(`${day}T12:00:00.000Z`);
      await deps().db.transaction((tx) =>
        recordAudit(tx, deps(), { organizationId: ada.organizationId, by: OPERATOR, action: 'webhook.deleted', target: { type: 'webhook', id: `w${index}`, label: day } }),
      );
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await readLog(ada, { group: 'webhook', limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((row) => row.target.label));
      cursor = page.next_cursor ?? undefined;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(['2026-05-05', '2026-05-04', '2026-05-03', '2026-05-02', '2026-05-01']);

    // The sign-up happened at the clock's start (November), after these May rows.
    const all = await readLog(ada);
    expect(all.data.map((row) => row.action)).toEqual(['user.signed_in', ...Array(5).fill('webhook.deleted')]);
    expect((await readLog(ada, { group: 'user' })).data.map((row) => row.action)).toEqual(['user.signed_in']);
    expect((await trpc(ada.cookie, 'query', 'auditLog.list', { group: 'emails' })).status).toBe(400);
  });
});

describe('retention', () => {
  it(`deletes rows older than ${AUDIT_RETENTION_DAYS} days in the hourly retention sweep`, async () => {
    const { organizationId } = await app.createOrg();
    app.clock.set('2025-01-01T00:00:00.000Z');
    await runAdminCommand(deps(), 'org:overage', { org: organizationId, on: true });
    app.clock.set(new Date(Date.parse('2025-01-01T00:00:00.000Z') + 2 * DAY_MS));
    await runAdminCommand(deps(), 'org:overage', { org: organizationId, off: true });
    app.clock.set(new Date(Date.parse('2025-01-01T00:00:00.000Z') + (AUDIT_RETENTION_DAYS + 1) * DAY_MS));
    expect((await applyRetention(deps())).auditEventsDeleted).toBeGreaterThanOrEqual(1);
    const left = (await rowsOf(organizationId)).filter((row) => row.action === 'organization.overage_changed');
    expect(left.map((row) => row.details)).toEqual([{ from: true, to: false }]);
  });
});
