import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { automationRuns, domains } from '@/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardConnections, type ConnectGuard } from '../support/connect-guard';
import { OPERATOR } from '@/server/services/audit/record';
import { setRateLimit } from '@/server/services/organizations/organizations';
import { startTestApp, type TestApp } from '../support/app';
import { importForm } from '../support/contact-imports';
import { keyFor } from '../support/keys';
import { hostilePathValue, hostileValue, PROTOTYPE_NAMES, resolver, toJson, validValue, type Schema } from './arbitraries';
import { mutatedBody } from './mutations';

/*
 * The API tried as an attacker or a careless client would, driven by the service's own OpenAPI
 * document: every operation in it is fuzzed, a new one without editing this file. FUZZ_RUNS
 * requests per operation (CI sets 500), FUZZ_SEED replays a run; the seed is printed every time.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const METHODS = ['get', 'post', 'patch', 'put', 'delete'];
const LEAKS = /\bat \S+ \(|\.tsx?:\d+|node_modules|\/work\/|\bselect\b.+\bfrom\b|\binsert into\b|\bSQLSTATE\b/i;

interface Operation {
  key: string;
  method: string;
  path: string;
  operation: Schema;
}

let app: TestApp;
let document: Schema;
let resolve: (schema: Schema | undefined) => Schema;
let ajv: Ajv2020;
let key: string;
const other: { key: string; ids: Record<string, string> } = { key: '', ids: {} };

/** Resources of a second organization, by the name of the path parameter that names them. */
async function otherOrganization(): Promise<void> {
  const org = await app.createOrg({ plan: '2m', name: 'Other', ownerEmail: 'other@other.test' });
  await setRateLimit(app.runtime.deps, org.organizationId, 1_000_000, OPERATOR);
  other.key = await keyFor(app, org.organizationId, 'full_access', 'test');
  // An endpoint first, so the domain's event gives it a delivery. Creation resolves, never connects.
  app.dns.set('hooks.other-company.com', 'A', ['93.184.216.34']);
  const webhook = await app.request('POST', '/api/webhooks', { key: org.apiKey, body: { url: 'https://hooks.other-company.com/hook', events: ['*'] } });
  const domain = await app.request('POST', '/api/domains', { key: org.apiKey, body: { name: 'other-company.com' } });
  const spareKey = await app.request('POST', '/api/api-keys', { key: org.apiKey, body: { name: 'spare' } });
  const suppression = await app.request('POST', '/api/suppressions', { key: org.apiKey, body: { email: 'blocked@other-company.com' } });
  const template = await app.request('POST', '/api/templates', { key: org.apiKey, body: { name: 'Other', subject: 'Hi {{ name }}', text: 'Hello {{ name }}' } });
  // Verified as the real check would leave it (the domains tests walk that path).
  await app.runtime.deps.db.update(domains).set({ status: 'verified', verifiedAt: app.clock.now() }).where(eq(domains.id, domain.body.id));
  app.dns.mx('example.net', 'mx.example.net');
  const email = await app.request('POST', '/api/emails', {
    key: other.key,
    body: { from: 'a@other-company.com', to: 'b@example.net', subject: 'Hi', text: 'Hello', scheduled_at: new Date(app.clock.now().getTime() + 86_400_000).toISOString(), attachments: [{ filename: 'a.txt', content: 'aGVsbG8=' }] },
  });
  expect([webhook.status, domain.status, spareKey.status, suppression.status, template.status]).toEqual([201, 201, 201, 200, 201]);
  expect(email.status, JSON.stringify(email.body)).toBe(200);
  const detail = await app.request('GET', `/api/emails/${email.body.id}`, { key: other.key });
  const deliveries = await app.request('GET', `/api/webhooks/${webhook.body.id}`, { key: org.apiKey });
  const audience = await app.request('POST', '/api/audiences', { key: org.apiKey, body: { name: 'Customers' } });
  const contact = await app.request('POST', `/api/audiences/${audience.body.id}/contacts`, { key: org.apiKey, body: { email: 'customer@example.net', name: 'Customer' } });
  const broadcast = await app.request('POST', '/api/broadcasts', {
    key: org.apiKey,
    body: { audience_id: audience.body.id, from: 'News <news@other-company.com>', subject: 'News', html: '<p>Hi {{ name }}</p>' },
  });
  const contactProperty = await app.request('POST', '/api/contact-properties', { key: org.apiKey, body: { key: 'company', type: 'string' } });
  const topic = await app.request('POST', '/api/topics', { key: org.apiKey, body: { name: 'Product news', default_subscription: 'opt_in' } });
  const form = await app.request('POST', '/api/forms', { key: org.apiKey, body: { name: 'Other sign-up', audience_id: audience.body.id, consent_text: 'Yes', allowed_origins: ['https://other-company.com'] } });
  expect(form.status, form.text).toBe(201);
  const automation = await app.request('POST', '/api/automations', {
    key: org.apiKey,
    body: { name: 'Other welcome', status: 'enabled', steps: [{ key: 'start', type: 'trigger', config: { event_name: 'user.created' } }, { key: 'pause', type: 'delay', config: { duration: '1 day' } }], connections: [{ from: 'start', to: 'pause' }] },
  });
  expect(automation.status, automation.text).toBe(201);
  const customEvent = await app.request('POST', '/api/events', { key: org.apiKey, body: { name: 'order.paid', schema: { total: 'number' } } });
  const sent = await app.request('POST', '/api/events/send', { key: org.apiKey, body: { event: 'user.created', contact_id: contact.body.id } });
  expect([customEvent.status, sent.status, sent.body.runsStarted], sent.text).toEqual([201, 202, 1]);
  const [run] = await app.runtime.deps.db.select({ id: automationRuns.id }).from(automationRuns).where(eq(automationRuns.automationId, automation.body.id));
  const contactImport = await app.request('POST', '/api/contacts/imports', { key: org.apiKey, body: importForm('email\nimported@example.net\n', { segments: [audience.body.id] }) });
  expect([audience.status, contact.status, broadcast.status, contactProperty.status, topic.status, contactImport.status]).toEqual([201, 201, 201, 201, 201, 202]);
  other.ids = {
    domain: domain.body.id,
    apiKey: spareKey.body.id,
    email: email.body.id,
    attachment: detail.body.attachments[0].id,
    webhook: webhook.body.id,
    delivery: deliveries.body.deliveries[0].id,
    audience: audience.body.id,
    contact: contact.body.id,
    contactProperty: contactProperty.body.id,
    topic: topic.body.id,
    form: form.body.id,
    automation: automation.body.id,
    run: run!.id,
    customEvent: customEvent.body.id,
    contactImport: contactImport.body.id,
    suppression: suppression.body.id,
    // DELETE /suppressions/{id} takes an address too.
    suppressedAddress: suppression.body.email,
    template: template.body.id,
    broadcast: broadcast.body.id,
  };
}

// Whatever a fuzzed request makes the service do, no connection leaves loopback.
let guard: ConnectGuard;

beforeAll(async () => {
  guard = guardConnections();
  app = await startTestApp();
  const response = await app.request('GET', '/docs/openapi.json');
  document = response.body;
  resolve = resolver(document);
  ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  // zod writes base64 content as a format ajv-formats does not define.
  ajv.addFormat('base64', /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
  ajv.addSchema({ $id: 'https://eumail.test/openapi', components: document.components });
  const org = await app.createOrg({ plan: '2m' });
  await setRateLimit(app.runtime.deps, org.organizationId, 1_000_000, OPERATOR);
  key = org.apiKey;
  await otherOrganization();
  console.log(`[fuzz] seed ${SEED}, ${RUNS} requests per operation (FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} replays this run)`);
}, 120_000);
afterAll(async () => {
  await app.close();
  guard.restore();
});

function operations(): Operation[] {
  return Object.entries(document.paths as Record<string, Record<string, Schema>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, method, path, operation })),
  );
}

const validatorFor = (schema: Schema) => ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"https://eumail.test/openapi#/components')));
const validators = new Map<Schema, ReturnType<Ajv2020['compile']>>();
const validates = (schema: Schema, value: unknown) => {
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = validatorFor(schema)));
  return validate(value) as boolean;
};

interface FuzzRequest {
  pathValues: Record<string, string>;
  query: Array<[string, string]>;
  body: unknown;
  /** The body is one the document's schema refuses. */
  bodyIsInvalid: boolean;
}

const takesBody = (op: Operation) => op.method !== 'get' && op.method !== 'delete';
const isEmptyObject = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;

function requestArbitrary(op: Operation): fc.Arbitrary<FuzzRequest> {
  const pathNames = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  // Another organization's real ids among the rest: reaching one is the worst answer there is.
  const pathValue = fc.oneof(hostilePathValue, fc.constantFrom(...Object.values(other.ids)));
  const pathValues = fc.record(Object.fromEntries(pathNames.map((name) => [name, pathValue])));
  const queryParams: Schema[] = (op.operation.parameters ?? []).filter((p: Schema) => p.in === 'query');
  const queryValue = (param: Schema) =>
    fc.oneof(validValue(param.schema, resolve).map((v) => (Array.isArray(v) ? v.map(String) : [String(v)])), hostileValue.map((v) => [typeof v === 'string' ? v.slice(0, 2000) : JSON.stringify(v)?.slice(0, 2000) ?? '']));
  const chosenValues: fc.Arbitrary<Array<[string, string]>> = fc
    .subarray(queryParams)
    .chain((chosen) =>
      fc.tuple(...chosen.map((p) => queryValue(p).map((values) => values.map((v): [string, string] => [p.name as string, v])))).map((lists) => lists.flat()),
    );
  const query = fc
    .tuple(chosenValues, fc.subarray(PROTOTYPE_NAMES, { maxLength: 2 }), fc.boolean())
    .map(([values, prototypeNames, repeat]) => [...values, ...(repeat ? values : []), ...prototypeNames.map((name): [string, string] => [name, '1'])]);
  const bodySchema: Schema | undefined = op.operation.requestBody?.content?.['application/json']?.schema;
  const body = bodySchema
    ? fc.oneof(
        validValue(bodySchema, resolve).map((value) => ({ value, invalid: false })),
        mutatedBody(validValue(bodySchema, resolve)).map((value) => ({ value, invalid: !validates(bodySchema, value) })),
      )
    : takesBody(op)
      ? // No body documented: nothing, or {} (an empty body is {}), is all an operation takes.
        fc.oneof(fc.constant({ value: undefined, invalid: false }), hostileValue.map((value) => ({ value, invalid: !isEmptyObject(value) })))
      : fc.constant({ value: undefined, invalid: false });
  return fc.record({ pathValues, query, body }).map(({ pathValues: values, query: q, body: b }) => ({ pathValues: values, query: q, body: b.value, bodyIsInvalid: b.invalid }));
}

async function send(op: Operation, request: FuzzRequest, asKey = key) {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => request.pathValues[name]!);
  // A URL carries UTF-8: a lone surrogate cannot be written in one, so it goes as U+FFFD, as a browser sends it.
  const encode = (text: string) => encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
  const search = request.query.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&');
  const headers: Record<string, string> = { authorization: `Bearer ${asKey}` };
  let body: string | undefined;
  if (request.body !== undefined && takesBody(op)) {
    body = toJson(request.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${app.url}/api${path}${search ? `?${search}` : ''}`, { method: op.method.toUpperCase(), headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

function checkResponse(op: Operation, request: FuzzRequest, response: Awaited<ReturnType<typeof send>>): void {
  const where = `${op.key} ${JSON.stringify(request).slice(0, 300)} → ${response.status} ${response.text.slice(0, 300)}`;
  expect(response.status, where).toBeLessThan(500);
  expect(response.headers.get('x-request-id') ?? 'none', where).toMatch(/^[0-9a-f-]{36}$/);
  expect(Object.keys(op.operation.responses), where).toContain(String(response.status));
  expect(response.text, where).not.toMatch(LEAKS);
  const othersId = Object.values(request.pathValues).some((value) => Object.values(other.ids).includes(value));
  if (othersId) expect(response.status, `${where}: another organization's resource was reached`).toBeGreaterThanOrEqual(400);
  if (response.status >= 400) {
    const body = JSON.parse(response.text) as Record<string, unknown>;
    expect(Object.keys(body).sort(), where).toEqual(['code', 'error']);
    expect(typeof body.error === 'string' && typeof body.code === 'string', where).toBe(true);
    return;
  }
  const schema = op.operation.responses[String(response.status)]?.content?.['application/json']?.schema;
  const answer = schema ? JSON.parse(response.text) : undefined;
  if (schema) expect(validates(schema, answer), `${where}: ${JSON.stringify(validators.get(schema)?.errors)}`).toBe(true);
  if (!request.bodyIsInvalid) return;
  // A batch is the one body accepted with invalid parts: each invalid item is refused on its own.
  const bodySchema = resolve(op.operation.requestBody?.content?.['application/json']?.schema);
  const itemSchema = bodySchema.type === 'array' ? bodySchema.items : undefined;
  expect(itemSchema && Array.isArray(request.body), `${where}: a body the document calls invalid was accepted`).toBeTruthy();
  // A batch answers an outcome ({ error, code }); its preflight a verdict ({ accepted: false, refusal: { error, code } }).
  const refusalCode = (outcome: { code?: string; refusal?: { code?: string } | null }) => outcome.code ?? outcome.refusal?.code;
  (request.body as unknown[]).forEach((item, index) => {
    if (!validates(itemSchema, item)) expect(refusalCode(answer.data[index]), `${where}: invalid item ${index} was accepted`).toBe('VALIDATION_ERROR');
  });
}

describe('every operation of the OpenAPI document, fuzzed', () => {
  it('finds operations to fuzz', () => {
    expect(operations().length).toBeGreaterThan(15);
  });

  it('answers every generated request without a 5xx, in the documented shape and statuses', async () => {
    for (const op of operations()) {
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(requestArbitrary(op), async (request) => checkResponse(op, request, await send(op, request))),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      if (process.env.FUZZ_TIMES) console.log(`[fuzz] ${Date.now() - started} ms ${JSON.stringify(op).slice(0, 80)}`);
    }
  }, 900_000);
});

describe('the cross-organization sweep', () => {
  // Every path parameter names one of the other organization's resources; one the sweep cannot
  // fill is a failure, so a new id-bearing operation cannot slip past.
  const RESOURCE_OF: Record<string, Record<string, keyof typeof other.ids>> = {
    '/api-keys/{id}': { id: 'apiKey' },
    '/domains/{id}': { id: 'domain' },
    '/domains/{id}/domain-connect': { id: 'domain' },
    '/domains/{id}/verify': { id: 'domain' },
    '/emails/{id}': { id: 'email' },
    '/emails/{id}/cancel': { id: 'email' },
    '/emails/{id}/attachments/{attachmentId}': { id: 'email', attachmentId: 'attachment' },
    '/webhooks/{id}': { id: 'webhook' },
    '/webhooks/{id}/secret': { id: 'webhook' },
    '/webhooks/{id}/rotate-secret': { id: 'webhook' },
    '/webhooks/{id}/signing-secret/rotate': { id: 'webhook' },
    '/webhooks/{id}/test': { id: 'webhook' },
    '/webhooks/{id}/deliveries': { id: 'webhook' },
    '/webhooks/{id}/deliveries/{deliveryId}': { id: 'webhook', deliveryId: 'delivery' },
    '/webhooks/{id}/deliveries/{deliveryId}/replay': { id: 'webhook', deliveryId: 'delivery' },
    '/audiences/{id}': { id: 'audience' },
    '/audiences/{id}/sunset-preview': { id: 'audience' },
    '/audiences/{id}/contacts': { id: 'audience' },
    '/audiences/{id}/contacts/batch': { id: 'audience' },
    '/audiences/{id}/contacts/batch-delete': { id: 'audience' },
    '/audiences/{id}/contacts/{contactId}': { id: 'audience', contactId: 'contact' },
    '/suppressions/{id}': { id: 'suppression' },
    '/contact-properties/{id}': { id: 'contactProperty' },
    '/topics/{id}': { id: 'topic' },
    '/forms/{id}': { id: 'form' },
    '/forms/{id}/submissions': { id: 'form' },
    '/automations/{id}': { id: 'automation' },
    '/automations/{id}/duplicate': { id: 'automation' },
    '/automations/{id}/stop': { id: 'automation' },
    '/automations/{id}/runs': { id: 'automation' },
    '/automations/{id}/figures': { id: 'automation' },
    '/automations/{id}/runs/{runId}': { id: 'automation', runId: 'run' },
    '/events/{identifier}': { identifier: 'customEvent' },
    '/contacts/{idOrEmail}': { idOrEmail: 'contact' },
    '/contacts/imports/{id}': { id: 'contactImport' },
    '/contacts/{idOrEmail}/segments': { idOrEmail: 'contact' },
    '/contacts/{idOrEmail}/confirmation': { idOrEmail: 'contact' },
    '/contacts/{idOrEmail}/segments/{segmentId}': { idOrEmail: 'contact', segmentId: 'audience' },
    '/contacts/{idOrEmail}/topics': { idOrEmail: 'contact' },
    '/contacts/{idOrEmail}/consent': { idOrEmail: 'contact' },
    '/segments/{id}': { id: 'audience' },
    '/segments/{id}/contacts': { id: 'audience' },
    '/templates/{id}': { id: 'template' },
    '/templates/{id}/duplicate': { id: 'template' },
    '/templates/{id}/publish': { id: 'template' },
    '/templates/{id}/preview': { id: 'template' },
    '/broadcasts/{id}': { id: 'broadcast' },
    '/broadcasts/{id}/duplicate': { id: 'broadcast' },
    '/broadcasts/{id}/send': { id: 'broadcast' },
    '/broadcasts/{id}/test': { id: 'broadcast' },
    '/broadcasts/{id}/cancel': { id: 'broadcast' },
    '/broadcasts/{id}/preflight': { id: 'broadcast' },
    '/emails/{id}/processing-record': { id: 'email' },
    // An address the other organization holds data for, and this one does not.
    '/recipients/{email}/data': { email: 'suppressedAddress' },
  };

  it('answers 404 NOT_FOUND to another organization on a real resource, and leaves it untouched', async () => {
    const snapshot = async () =>
      JSON.stringify(
        await Promise.all([
          app.request('GET', `/api/emails/${other.ids.email}`, { key: other.key }),
          app.request('GET', '/api/domains', { key: other.key }),
          app.request('GET', '/api/api-keys', { key: other.key }),
          app.request('GET', `/api/webhooks/${other.ids.webhook}`, { key: other.key }),
          app.request('GET', `/api/webhooks/${other.ids.webhook}/secret`, { key: other.key }),
          app.request('GET', `/api/audiences/${other.ids.audience}/contacts`, { key: other.key }),
          app.request('GET', '/api/suppressions', { key: other.key }),
          app.request('GET', `/api/templates/${other.ids.template}`, { key: other.key }),
          app.request('GET', `/api/broadcasts/${other.ids.broadcast}`, { key: other.key }),
          app.request('GET', `/api/automations/${other.ids.automation}`, { key: other.key }),
        ]).then((responses) => responses.map((r) => r.body)),
      );
    const before = await snapshot();
    const idBearing = operations().filter((op) => op.path.includes('{'));
    expect(idBearing.length).toBeGreaterThan(0);
    for (const op of idBearing) {
      const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const resources = RESOURCE_OF[op.path];
      expect(resources && names.every((name) => resources[name]), `${op.key} has a path id the sweep cannot fill: add it to RESOURCE_OF`).toBeTruthy();
      const pathValues = Object.fromEntries(names.map((name) => [name, other.ids[resources![name]!]!]));
      const bodySchema = op.operation.requestBody?.content?.['application/json']?.schema;
      const body = bodySchema ? fc.sample(validValue(bodySchema, resolve), { numRuns: 1, seed: SEED })[0] : undefined;
      const response = await send(op, { pathValues, query: [], body, bodyIsInvalid: false });
      expect(response.status, `${op.key}: ${response.text}`).toBe(404);
      expect(JSON.parse(response.text)).toEqual({ error: expect.any(String), code: 'NOT_FOUND' });
    }
    expect(await snapshot()).toBe(before);
  });
});
