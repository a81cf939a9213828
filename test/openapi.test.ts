import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { appRouter } from '@/server/routers';
import { PLAIN_ROUTES } from '@/server/routers/plain';
import { buildRouteTable } from '@/server/http/routes';
import { startTestApp, type TestApp } from './support/app';
import { EXTRA_OPERATIONS, SPEC_OPERATIONS } from './tables/spec-paths';
import { API_KEY_PERMISSIONS } from '@/server/services/api-keys/vocabulary';
import { DOMAIN_STATUSES } from '@/server/services/domains/statuses';
import { EMAIL_STATUSES } from '@/server/services/emails/statuses';
import { EMAIL_EVENT_TYPES, EVENT_DESCRIPTIONS, EVENT_TYPES } from '@/server/services/shared/event-types';

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
        // The one path id that may also be an address (spec: removal by entry id or by address).
        if (key === 'DELETE /suppressions/{id}') expect(parameter.schema.anyOf, key).toEqual([{ format: 'uuid' }, { format: 'idn-email' }]);
        // A data subject is named by the address (docs/privacy.md).
        else if (key.endsWith(' /recipients/{email}/data')) expect(parameter.schema.format, key).toBe('idn-email');
        else expect(parameter.schema.format, `${key} ${parameter.name}`).toBe('uuid');
      }
    }
    for (const [path, method] of [['/emails', 'post'], ['/emails/{id}', 'patch'], ['/emails/{id}/cancel', 'post'], ['/domains', 'post']] as const) {
      expect(Object.keys(document.paths[path][method].responses), `${method} ${path}`).toContain('409');
    }
    expect(Object.keys(document.paths['/emails/{id}/attachments/{attachmentId}'].get.responses)).toContain('410');
    const everything = JSON.stringify({ paths: document.paths, components: document.components });
    // EventType is the catalogue webhooks will offer: it stands alone until their operations land.
    const unreferenced = Object.keys(document.components.schemas).filter((name) => name !== 'EventType' && !everything.includes(`#/components/schemas/${name}`));
    expect(unreferenced).toEqual([]);
  });
});
