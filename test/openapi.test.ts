import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { appRouter } from '@/server/routers';
import { PLAIN_ROUTES } from '@/server/routers/plain';
import { buildRouteTable } from '@/server/http/routes';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';
import { EXTRA_OPERATIONS, SPEC_OPERATIONS } from './tables/spec-paths';
import { API_KEY_PERMISSIONS } from '@/server/vocabulary/api-keys';
import { DOMAIN_STATUSES } from '@/server/vocabulary/domain-statuses';
import { EMAIL_STATUSES } from '@/server/vocabulary/email-statuses';
import { EMAIL_EVENT_TYPES, EVENT_DESCRIPTIONS, EVENT_TYPES } from '@/server/vocabulary/event-types';

let app: TestApp;
let document: any;
beforeAll(async () => {
  app = await startTestApp();
  const response = await app.request('GET', '/docs/openapi.json');
  expect(response.status).toBe(200);
  document = response.body;
});
afterAll(() => app.close());

const METHODS = ['get', 'post', 'patch', 'put', 'delete'];
const operations = () =>
  Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, path, operation })),
  );

describe('GET /docs/openapi.json', () => {
  it('is a valid OpenAPI 3.1.0 document, version 1.0.0', async () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('has a unique operationId on every operation', () => {
    const ids = operations().map((o) => o.operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('documents every route the API serves, and serves only spec operations', () => {
    const documented = new Set(operations().map((o) => o.key));
    const served = buildRouteTable(appRouter, PLAIN_ROUTES).map((r) => `${r.method} ${r.path}`);
    for (const route of served) expect(documented, `${route} is missing from the document`).toContain(route);
    for (const route of served) expect([...SPEC_OPERATIONS, ...EXTRA_OPERATIONS]).toContain(route);
  });

  it('puts bearer security and the {error, code} schema on every operation', () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.schemas.Error).toMatchObject({ required: ['error', 'code'] });
    for (const { key, path, operation } of operations()) {
      const errors = Object.entries(operation.responses).filter(([status]) => !status.startsWith('2'));
      expect(errors.length, key).toBeGreaterThan(0);
      for (const [, response] of errors) {
        expect((response as any).content['application/json'].schema.$ref, key).toBe('#/components/schemas/Error');
      }
      if (path.startsWith('/health')) expect(operation.security, key).toEqual([]);
      else {
        expect(operation.security, key).toEqual([{ bearerAuth: [] }]);
        expect(Object.keys(operation.responses), key).toEqual(expect.arrayContaining(['401', '403', '404', '429', '500']));
      }
    }
  });

  it('answers 201 where the spec says so', () => {
    expect(Object.keys(document.paths['/api-keys'].post.responses)).toContain('201');
    expect(Object.keys(document.paths['/api-keys'].post.responses)).not.toContain('200');
  });

  it('speaks the one vocabulary: the event catalogue and every status set come from the services', () => {
    const schemas = document.components.schemas;
    expect(schemas.EventType.enum).toEqual(EVENT_TYPES);
    for (const type of EVENT_TYPES) expect(schemas.EventType.description).toContain(`\`${type}\`: ${EVENT_DESCRIPTIONS[type]}`);
    expect(schemas.EmailSummary.properties.status.enum).toEqual([...EMAIL_STATUSES]);
    expect(schemas.Email.properties.events.items.properties.type.enum).toEqual(EMAIL_EVENT_TYPES);
    const domain = JSON.stringify(schemas);
    for (const status of DOMAIN_STATUSES) expect(domain).toContain(`"${status}"`);
    expect(document.paths['/api-keys'].post.requestBody.content['application/json'].schema.properties.permission.enum).toEqual([...API_KEY_PERMISSIONS]);
  });

  it('tells the truth about inputs: strict bodies, UUID path ids, every refusal an operation can answer, no leftover schemas', () => {
    for (const { key, operation } of operations()) {
      let body = operation.requestBody?.content?.['application/json']?.schema;
      if (body?.type === 'array') body = body.items;
      if (body) expect(body.additionalProperties, key).toBe(false);
      for (const parameter of (operation.parameters ?? []).filter((p: any) => p.in === 'path')) {
        // The suppression entry, by id or by address (spec: removal by entry id or by address; Resend reads one the same way).
        if (key === 'DELETE /suppressions/{id}' || key === 'GET /suppressions/{id}') expect(parameter.schema.anyOf, key).toEqual([{ format: 'uuid' }, { format: 'idn-email' }]);
        // A contact of an audience, by id or by its address (Resend names it so).
        else if (key.endsWith(' /audiences/{id}/contacts/{contactId}') && parameter.name === 'contactId') expect(parameter.schema.anyOf, key).toEqual([{ format: 'uuid' }, { format: 'idn-email' }]);
        // A contact of the organization, by id or by address (Resend's /contacts/{idOrEmail}).
        else if (parameter.name === 'idOrEmail' && key.includes(' /contacts/{idOrEmail}')) expect(parameter.schema.anyOf, key).toEqual([{ format: 'uuid' }, { format: 'idn-email' }]);
        // A declared event, by id or by name (Resend's events.get/update/remove take either).
        else if (parameter.name === 'identifier' && key.includes(' /events/{identifier}')) expect(parameter.schema.anyOf, key).toEqual([{ format: 'uuid' }, { pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]*$' }]);
        // A data subject is named by the address (docs/privacy.md).
        else if (key.endsWith(' /recipients/{email}/data')) expect(parameter.schema.format, key).toBe('idn-email');
        else expect(parameter.schema.format, `${key} ${parameter.name}`).toBe('uuid');
      }
    }
    for (const [path, method] of [['/emails', 'post'], ['/emails/{id}', 'patch'], ['/emails/{id}/cancel', 'post'], ['/domains', 'post'], ['/templates', 'post'], ['/templates/{id}', 'patch']] as const) {
      expect(Object.keys(document.paths[path][method].responses), `${method} ${path}`).toContain('409');
    }
    // A rule segment's members come from its rules: every hand-made change of them can answer 409.
    for (const [path, method] of [
      ['/contacts', 'post'],
      ['/contacts/{idOrEmail}/segments/{segmentId}', 'post'],
      ['/contacts/{idOrEmail}/segments/{segmentId}', 'delete'],
      ['/contacts/imports', 'post'],
      ['/audiences/{id}/contacts', 'post'],
      ['/audiences/{id}/contacts/batch', 'post'],
      ['/audiences/{id}/contacts/batch-delete', 'post'],
      ['/audiences/{id}/contacts/{contactId}', 'delete'],
    ] as const) {
      expect(Object.keys(document.paths[path][method].responses), `${method} ${path}`).toContain('409');
    }
    expect(Object.keys(document.paths['/emails/{id}/attachments/{attachmentId}'].get.responses)).toContain('410');
    const everything = JSON.stringify({ paths: document.paths, components: document.components });
    // EventType is the catalogue webhooks will offer: it stands alone until their operations land.
    const unreferenced = Object.keys(document.components.schemas).filter((name) => name !== 'EventType' && !everything.includes(`#/components/schemas/${name}`));
    expect(unreferenced).toEqual([]);
  });
});

// Issue 29, point 3: what a first-time reader of the document needs about sending.
describe('POST /emails in the document', () => {
  const send = () => document.paths['/emails'].post;
  const bodySchema = () => send().requestBody.content['application/json'].schema;
  /** Which oneOf branches a body matches, by the branches' own required/not/anyOf keywords. */
  const has = (body: Record<string, unknown>, rule: any): boolean =>
    (rule.required ?? []).every((name: string) => name in body) &&
    (rule.anyOf === undefined || rule.anyOf.some((inner: any) => has(body, inner))) &&
    (rule.not === undefined || !has(body, rule.not));
  const branchesOf = (body: Record<string, unknown>) => bodySchema().oneOf.filter((branch: any) => has(body, branch)).map((branch: any) => branch.title);

  it('describes test mode, the test addresses, the sandbox domain and idempotency', () => {
    const description: string = send().description;
    for (const phrase of ['Test mode', 'eu_test_', 'bounced', 'complained', 'sandbox', 'sandbox: true', 'confirmed address', 'pinned', 'Idempotency-Key', '24 hours', '409']) {
      expect(description).toContain(phrase);
    }
    expect(send().parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'Idempotency-Key' }));
  });

  it("expresses the body as a template_id (+ variables), Resend's template { id, variables }, or a subject with html/text (oneOf), on every send operation", () => {
    expect(bodySchema().oneOf.map((branch: any) => branch.title)).toEqual(['From a template', "From a template, Resend's form", 'Subject and body']);
    expect(branchesOf({ template_id: 'x', variables: {} })).toEqual(['From a template']);
    expect(branchesOf({ template: { id: 'x', variables: {} } })).toEqual(["From a template, Resend's form"]);
    expect(branchesOf({ subject: 'Hi', text: 'Hello' })).toEqual(['Subject and body']);
    expect(branchesOf({ subject: 'Hi', html: '<p>Hello</p>', text: 'Hello' })).toEqual(['Subject and body']);
    for (const invalid of [
      { subject: 'Hi' },
      { template_id: 'x', subject: 'Hi' },
      { subject: 'Hi', text: 'x', variables: {} },
      { template: { id: 'x' }, template_id: 'x' },
      { template: { id: 'x' }, variables: {} },
      { template: { id: 'x' }, subject: 'Hi' },
      {},
    ])
      expect(branchesOf(invalid)).toEqual([]);
    expect(document.paths['/emails/preflight'].post.requestBody.content['application/json'].schema.oneOf).toEqual(bodySchema().oneOf);
    for (const path of ['/emails/batch', '/emails/batch/preflight']) {
      const batch = document.paths[path].post.requestBody.content['application/json'].schema;
      expect(batch.items.oneOf, path).toEqual(bodySchema().oneOf);
    }
  });

  it('gives real examples that the API accepts: a send from the sandbox with a test key is queued', async () => {
    const examples: Array<Record<string, unknown>> = bodySchema().examples;
    expect(examples.map(branchesOf)).toEqual([['Subject and body'], ['From a template']]);
    const { organizationId } = await app.createOrg();
    const testKey = await keyFor(app, organizationId, 'full_access', 'test');
    expect(app.runtime.config.sandboxDomain).toBe('sandbox.localhost');
    const sent = await app.request('POST', '/api/emails', { key: testKey, body: examples[0] });
    expect(sent.status, sent.text).toBe(200);
  });

  it('shows no unbounded safe-integer limits, and a readiness example shaped as the real answer', async () => {
    expect(JSON.stringify(document)).not.toContain('9007199254740991');
    const schema = document.paths['/health/ready'].get.responses['200'].content['application/json'].schema;
    const [example] = schema.examples;
    const real = (await app.request('GET', '/api/health/ready')).body;
    const shape = (value: unknown): unknown =>
      value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)])) : typeof value;
    expect(shape(example)).toEqual(shape(real));
    expect(example.checks.migrations.applied).toBeGreaterThan(0);
    expect(schema.properties.checks.properties.migrations.properties.applied.minimum).toBe(0);
  });
});
