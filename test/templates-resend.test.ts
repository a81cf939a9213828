import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditEvents, domains, emails, organizations } from '@/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';

// Resend's ways with templates (issue 36, docs/templates.md): {{{NAME}}} placeholders, declared
// variables, drafts and publish, and `template: { id, variables }` on a send.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

let org: { organizationId: string; apiKey: string };
beforeEach(async () => {
  await app.reset();
  org = await app.createOrg();
  const domain = await app.request('POST', '/api/domains', { key: org.apiKey, body: { name: 'acme.example.com' } });
  await app.runtime.deps.db.update(domains).set({ status: 'verified', verifiedAt: app.clock.now() }).where(eq(domains.id, domain.body.id));
  app.dns.mx('example.net', 'mx.example.net');
});

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, key = org.apiKey) => app.request(method, `/api${path}`, { key, body });

async function create(body: Record<string, unknown>, key = org.apiKey) {
  const response = await call('POST', '/templates', { name: 'Order', subject: 'S', ...body }, key);
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

const preview = (id: string, variables: unknown = {}) => call('GET', `/templates/${id}/preview?variables=${encodeURIComponent(JSON.stringify(variables))}`);
const send = (body: Record<string, unknown>, key = org.apiKey) => call('POST', '/emails', { from: 'Acme <hello@acme.example.com>', to: 'ada@example.net', ...body }, key);
const sentEmail = async (response: { status: number; text: string; body: any }) => {
  expect(response.status, response.text).toBe(200);
  return (await call('GET', `/emails/${response.body.id}`)).body;
};

// Resend's own example (their docs' "order-confirmation"), with a subject.
const order = {
  name: 'order-confirmation',
  subject: 'Your {{{PRODUCT}}}',
  html: '<p>Name: {{{PRODUCT}}}</p><p>Total: {{{PRICE}}}</p><p>Hi {{{NAME|dear customer}}}</p>',
  text: 'Name: {{{PRODUCT}}}, total {{{PRICE}}}, for {{{ NAME | dear customer }}}',
  variables: [
    { key: 'PRODUCT', type: 'string', fallback_value: 'item' },
    { key: 'PRICE', type: 'number' },
  ],
};

describe("Resend's {{{NAME}}} placeholders", () => {
  it('print variables in the subject, html and text beside Liquid; the html part escapes them; a fallback stands in when one is not given', async () => {
    const template = await create({ subject: 'Hi {{{NAME}}}, {{ plan | upcase }}', html: '<p>{{{NAME|there}}} / {{ NAME }}</p>', text: '{{{NAME}}} on {{{account.plan|free}}}' });
    expect(template.variables).toEqual(['NAME', 'plan', 'account']);
    const shown = await preview(template.id, { NAME: 'Ada <3', plan: 'pro', account: { plan: 'team' } });
    expect(shown.body).toEqual({ subject: 'Hi Ada <3, PRO', html: '<p>Ada &lt;3 / Ada &lt;3</p>', text: 'Ada <3 on team', missingVariables: [] });
    // Not given: the fallback; a {{{NAME}}} without one renders empty in a preview and is listed.
    expect((await preview(template.id, {})).body).toEqual({ subject: 'Hi , ', html: '<p>there / </p>', text: ' on free', missingVariables: ['NAME', 'plan'] });
    // A fallback replaces only what is not given (Liquid's default also replaces an empty string).
    expect((await preview(template.id, { NAME: '' })).body.html).toBe('<p> / </p>');
  });

  it('take fallbacks with quotes and backslashes as written, and refuse a {{{ that names no variable, with its line', async () => {
    const template = await create({ text: 'Hello {{{who|the "best" \\ friend}}}' });
    expect((await preview(template.id)).body.text).toBe('Hello the "best" \\ friend');
    const bad = await call('POST', '/templates', { name: 'T', subject: 'S', html: '<p>\n{{{ 1 + 2 }}}</p>' });
    expect(bad.body).toEqual({ error: 'html: line 2: {{{ must name a variable, as {{{NAME}}} or {{{NAME|fallback}}} (a fallback on one line, without braces)', code: 'VALIDATION_ERROR' });
    expect((await call('POST', '/templates', { name: 'T', subject: '{{{A|x}y}}}', text: 'x' })).body.error).toMatch(/^subject: line 1: \{\{\{ must name a variable/);
  });
});

describe('declared variables', () => {
  it('are stored with the template, replaced by a PATCH and removed with null', async () => {
    const template = await create(order);
    expect(template).toMatchObject({
      variables: ['PRODUCT', 'PRICE', 'NAME'],
      declaredVariables: [
        { key: 'PRODUCT', type: 'string', fallbackValue: 'item' },
        { key: 'PRICE', type: 'number', fallbackValue: null },
      ],
    });
    expect((await call('GET', `/templates/${template.id}`)).body.declaredVariables).toHaveLength(2);
    const patched = await call('PATCH', `/templates/${template.id}`, { variables: [{ key: 'PRICE', type: 'number', fallback_value: 0 }] });
    expect(patched.body.declaredVariables).toEqual([{ key: 'PRICE', type: 'number', fallbackValue: 0 }]);
    // A PATCH without variables keeps them.
    expect((await call('PATCH', `/templates/${template.id}`, { name: 'Renamed' })).body.declaredVariables).toHaveLength(1);
    expect((await call('PATCH', `/templates/${template.id}`, { variables: null })).body.declaredVariables).toEqual([]);
  });

  it('refuse a reserved or repeated key, a fallback of the wrong type, a malformed key and more than 50, naming the entry', async () => {
    const refused = async (variables: unknown) => {
      const response = await call('POST', '/templates', { name: 'T', subject: 'S', text: 'x', variables });
      expect(response.status, response.text).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
      return response.body.error as string;
    };
    expect(await refused([{ key: 'EMAIL', type: 'string' }])).toMatch(/^variables\.0\.key: EMAIL is reserved/);
    expect(await refused([{ key: 'A', type: 'string' }, { key: 'A', type: 'number' }])).toBe('variables.1.key: A is declared twice');
    expect(await refused([{ key: 'A', type: 'number', fallback_value: 'ten' }])).toBe("variables.0.fallback_value: must be a number, as the variable's type says");
    expect(await refused([{ key: '1A', type: 'string' }])).toMatch(/^variables\.0\.key: must be a name/);
    expect(await refused([{ key: 'A', type: 'boolean' }])).toMatch(/^variables\.0\.type/);
    expect(await refused([{ key: 'A', type: 'string', extra: 1 }])).toMatch(/^variables\.0/);
    expect(await refused(Array.from({ length: 51 }, (_, i) => ({ key: `V${i}`, type: 'string' })))).toMatch(/^variables/);
    expect((await call('GET', '/templates')).body.data).toEqual([]);
  });

  it('on a send: values are checked against their types, fallbacks stand in, and a variable without one must be given', async () => {
    const template = await create(order);
    const email = await sentEmail(await send({ template_id: template.id, variables: { PRICE: 499, NAME: 'Ada' } }));
    expect(email).toMatchObject({ subject: 'Your item', html: '<p>Name: item</p><p>Total: 499</p><p>Hi Ada</p>', text: 'Name: item, total 499, for Ada' });

    expect((await send({ template_id: template.id, variables: { PRODUCT: 'Mac' } })).body).toEqual({
      error: 'variables: missing PRICE: the template needs it (read as {{{NAME}}}, or declared, without a fallback)',
      code: 'VALIDATION_ERROR',
    });
    expect((await send({ template_id: template.id, variables: { PRICE: '499' } })).body).toEqual({ error: 'variables.PRICE: must be a number, as the template declares it', code: 'VALIDATION_ERROR' });
    expect((await send({ template_id: template.id, variables: { PRICE: 1, PRODUCT: 7 } })).body).toEqual({ error: 'variables.PRODUCT: must be a string, as the template declares it', code: 'VALIDATION_ERROR' });
    // A preview lists what a send would refuse, rendered empty.
    expect((await preview(template.id, {})).body).toMatchObject({ html: '<p>Name: item</p><p>Total: </p><p>Hi dear customer</p>', missingVariables: ['PRICE'] });
    // {{{NAME}}} without a fallback is required on a send even undeclared; Liquid's {{ name }} stays lenient.
    const undeclared = await create({ subject: '{{{TITLE}}}', text: 'Hi {{ name }}' });
    expect((await send({ template_id: undeclared.id })).body).toEqual({ error: 'variables: missing TITLE: the template needs it (read as {{{NAME}}}, or declared, without a fallback)', code: 'VALIDATION_ERROR' });
    expect(await sentEmail(await send({ template_id: undeclared.id, variables: { TITLE: 'Welcome' } }))).toMatchObject({ subject: 'Welcome', text: 'Hi ' });
    // A declared fallback covers a {{{NAME}}} read without one.
    const covered = await create({ subject: '{{{TITLE}}}', text: 'x', variables: [{ key: 'TITLE', type: 'string', fallback_value: 'Hello' }] });
    expect(await sentEmail(await send({ template_id: covered.id }))).toMatchObject({ subject: 'Hello' });
    expect(await app.runtime.deps.db.select({ id: emails.id }).from(emails)).toHaveLength(3);
  });
});

describe("Resend's template: { id, variables } on a send", () => {
  it('is template_id + variables under another name, in POST /emails and each batch item; one form or the other', async () => {
    const template = await create(order);
    const email = await sentEmail(await send({ template: { id: template.id, variables: { PRODUCT: 'Vintage Macintosh', PRICE: 499 } } }));
    expect(email).toMatchObject({ subject: 'Your Vintage Macintosh', text: 'Name: Vintage Macintosh, total 499, for dear customer' });
    // Its refusals name its own fields.
    expect((await send({ template: { id: template.id } })).body.error).toBe('template.variables: missing PRICE: the template needs it (read as {{{NAME}}}, or declared, without a fallback)');
    expect((await send({ template: { id: template.id, variables: { PRICE: 'x' } } })).body.error).toBe('template.variables.PRICE: must be a number, as the template declares it');
    expect((await send({ template: { id: 'order-confirmation' } })).body.error).toMatch(/^template\.id: must be the id of one of your templates/);
    expect((await send({ template: { id: template.id, variables: {} }, template_id: template.id })).body).toEqual({
      error: "template: give template_id (with variables) or template { id, variables } (Resend's form), not both",
      code: 'VALIDATION_ERROR',
    });
    expect((await send({ template: { id: template.id }, variables: { PRICE: 1 } })).body.error).toMatch(/^template: give template_id/);
    expect((await send({ template: { id: template.id }, subject: 'Mine' })).body).toEqual({ error: 'subject: cannot be given with template (the template gives it)', code: 'VALIDATION_ERROR' });
    expect((await send({ template: { id: template.id, vars: {} } })).body.code).toBe('VALIDATION_ERROR');
    const other = await app.createOrg({ name: 'Other' });
    expect((await send({ template: { id: template.id, variables: { PRICE: 1 } } }, other.apiKey)).body).toEqual({ error: 'Template not found', code: 'NOT_FOUND' });

    const item = (body: Record<string, unknown>) => ({ from: 'Acme <hello@acme.example.com>', to: 'ada@example.net', ...body });
    const batch = await call('POST', '/emails/batch', [
      item({ template: { id: template.id, variables: { PRICE: 1 } } }),
      item({ template: { id: template.id } }),
      item({ template_id: template.id, variables: { PRICE: 2 } }),
    ]);
    expect(batch.body.data, batch.text).toEqual([
      { id: expect.any(String) },
      { error: 'template.variables: missing PRICE: the template needs it (read as {{{NAME}}}, or declared, without a fallback)', code: 'VALIDATION_ERROR' },
      { id: expect.any(String) },
    ]);
    expect((await call('GET', `/emails/${batch.body.data[2].id}`)).body.text).toBe('Name: item, total 2, for dear customer');
  });

  it('is in the OpenAPI document as the other form of a send from a template', async () => {
    const document = (await app.request('GET', '/docs/openapi.json')).body;
    const body = document.paths['/emails'].post.requestBody.content['application/json'].schema;
    expect(body.properties.template.description).toMatch(/Resend's name for `template_id` \+ `variables`/);
    expect(body.oneOf.map((choice: { title: string }) => choice.title)).toEqual(['From a template', "From a template, Resend's form", 'Subject and body']);
    expect(document.paths['/templates/{id}/publish'].post.operationId).toBe('publishTemplate');
  });
});

describe('drafts and publish', () => {
  const subjectOf = async (response: { status: number; text: string; body: any }) => (await sentEmail(response)).subject as string;

  it("Resend's create-then-publish: a draft cannot be sent; once published, changes wait for the next publish", async () => {
    const template = await create({ name: 'Welcome', subject: 'v1 {{{NAME|there}}}', text: 'one', draft: true });
    expect(template).toMatchObject({ drafts: true, status: 'draft', publishedAt: null });
    expect((await send({ template_id: template.id })).body).toEqual({
      error: 'template_id: the template has never been published; publish it (POST /templates/{id}/publish) to send with it',
      code: 'VALIDATION_ERROR',
    });
    expect((await send({ template: { id: template.id } })).body.error).toMatch(/^template\.id: the template has never been published/);
    // Never published, a change is simply the template (nothing of it is sent yet).
    expect((await call('PATCH', `/templates/${template.id}`, { subject: 'v2 {{{NAME|there}}}' })).body).toMatchObject({ subject: 'v2 {{{NAME|there}}}', status: 'draft' });

    app.clock.advance(1_000);
    const published = await call('POST', `/templates/${template.id}/publish`);
    expect(published.status, published.text).toBe(200);
    expect(published.body).toMatchObject({ status: 'published', publishedAt: app.clock.now().toISOString(), subject: 'v2 {{{NAME|there}}}' });
    expect(await subjectOf(await send({ template_id: template.id }))).toBe('v2 there');

    // A change is the draft: reads and the preview show it, sends keep the published version.
    const edited = await call('PATCH', `/templates/${template.id}`, { subject: 'v3 {{{NAME|there}}}', text: 'three' });
    expect(edited.body).toMatchObject({ subject: 'v3 {{{NAME|there}}}', text: 'three', status: 'draft', publishedAt: published.body.publishedAt });
    expect((await call('GET', `/templates/${template.id}`)).body).toMatchObject({ subject: 'v3 {{{NAME|there}}}', status: 'draft' });
    expect((await call('GET', '/templates')).body.data[0]).toMatchObject({ subject: 'v3 {{{NAME|there}}}', status: 'draft' });
    expect((await preview(template.id, { NAME: 'Ada' })).body).toMatchObject({ subject: 'v3 Ada', text: 'three' });
    const before = await sentEmail(await send({ template_id: template.id, variables: { NAME: 'Ada' } }));
    expect(before).toMatchObject({ subject: 'v2 Ada', text: 'one' });

    // Publishing sends the draft from then on; emails already accepted keep what they were.
    await call('POST', `/templates/${template.id}/publish`);
    expect(await subjectOf(await send({ template_id: template.id, variables: { NAME: 'Ada' } }))).toBe('v3 Ada');
    expect((await call('GET', `/emails/${before.id}`)).body.subject).toBe('v2 Ada');

    // Changed back to what is published: no draft waits.
    await call('PATCH', `/templates/${template.id}`, { subject: 'v4' });
    expect((await call('PATCH', `/templates/${template.id}`, { subject: 'v3 {{{NAME|there}}}' })).body.status).toBe('published');

    const actions = await app.runtime.deps.db.select({ action: auditEvents.action, details: auditEvents.details }).from(auditEvents).where(eq(auditEvents.targetId, template.id));
    expect(actions.filter((row) => row.action === 'template.published')).toHaveLength(2);
    expect(actions).toContainEqual({ action: 'template.updated', details: { fields: ['subject', 'text'], draft: true } });
  });

  it('the spec\'s template sends a change at once until it is first published; then it has drafts', async () => {
    const template = await create({ subject: 'one', text: 'x' });
    expect(template).toMatchObject({ drafts: false, status: 'published' });
    await call('PATCH', `/templates/${template.id}`, { subject: 'two' });
    expect(await subjectOf(await send({ template_id: template.id }))).toBe('two');
    expect((await call('POST', `/templates/${template.id}/publish`)).body).toMatchObject({ drafts: true, status: 'published', subject: 'two' });
    expect((await call('PATCH', `/templates/${template.id}`, { subject: 'three' })).body.status).toBe('draft');
    expect(await subjectOf(await send({ template_id: template.id }))).toBe('two');
  });

  it('a copy of a template with drafts starts unpublished, as last written; declared variables go with it', async () => {
    const template = await create({ ...order, draft: true });
    await call('POST', `/templates/${template.id}/publish`);
    await call('PATCH', `/templates/${template.id}`, { subject: 'Edited {{{PRODUCT}}}' });
    const copy = await call('POST', `/templates/${template.id}/duplicate`);
    expect(copy.body).toMatchObject({ name: 'order-confirmation (copy)', subject: 'Edited {{{PRODUCT}}}', drafts: true, status: 'draft', publishedAt: null, declaredVariables: [{ key: 'PRODUCT' }, { key: 'PRICE' }] });
    expect((await send({ template_id: copy.body.id, variables: { PRICE: 1 } })).body.error).toMatch(/never been published/);
  });

  it('is a live write: a test key may not publish, another organization finds nothing; a broadcast refuses a template never published', async () => {
    const template = await create({ text: 'x', draft: true });
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    expect((await call('POST', `/templates/${template.id}/publish`, undefined, testKey)).body).toEqual({ error: 'A test key cannot change live state', code: 'FORBIDDEN' });
    // A test key sends with live templates, under the same rule.
    expect((await send({ template_id: template.id }, testKey)).body.error).toMatch(/never been published/);
    const other = await app.createOrg({ name: 'Other' });
    expect((await call('POST', `/templates/${template.id}/publish`, undefined, other.apiKey)).body).toEqual({ error: 'Template not found', code: 'NOT_FOUND' });
    expect((await call('POST', '/templates/0190a0a0-0000-7000-8000-000000000000/publish')).status).toBe(404);
    expect((await call('POST', '/templates/nope/publish')).status).toBe(400);

    const audience = (await call('POST', '/audiences', { name: 'News' })).body.id;
    await call('POST', `/audiences/${audience}/contacts`, { email: 'ada@example.net' });
    const broadcast = (await call('POST', '/broadcasts', { audience_id: audience, from: 'News <news@acme.example.com>', template_id: template.id })).body;
    await app.runtime.deps.db.update(organizations).set({ plan: '10k' }).where(eq(organizations.id, org.organizationId));
    expect((await call('POST', `/broadcasts/${broadcast.id}/send`)).body).toEqual({
      error: 'template_id: the template has never been published; publish it (POST /templates/{id}/publish) first',
      code: 'VALIDATION_ERROR',
    });
    await call('POST', `/templates/${template.id}/publish`);
    expect((await call('POST', `/broadcasts/${broadcast.id}/send`)).body.status).toBe('sending');
  });
});

describe("Resend's template from, reply_to and alias", () => {
  it('give a send by template that names none its sender and reply-to; a send’s own win; without either a send is 400 naming from', async () => {
    const template = await create({ text: 'Hi', from: 'Acme Orders <orders@acme.example.com>', reply_to: ['help@acme.example.com', 'desk@acme.example.com'] });
    expect(template).toMatchObject({ from: 'Acme Orders <orders@acme.example.com>', replyTo: ['help@acme.example.com', 'desk@acme.example.com'], alias: null });
    const bare = { to: 'ada@example.net', template_id: template.id };
    const byTemplate = await sentEmail(await call('POST', '/emails', bare));
    expect(byTemplate).toMatchObject({ from: 'Acme Orders <orders@acme.example.com>', replyTo: ['help@acme.example.com', 'desk@acme.example.com'] });
    const own = await sentEmail(await send({ template_id: template.id, reply_to: 'me@acme.example.com' }));
    expect(own).toMatchObject({ from: 'Acme <hello@acme.example.com>', replyTo: ['me@acme.example.com'] });

    const plain = await create({ text: 'Hi' });
    expect((await call('POST', '/emails', { to: 'ada@example.net', template_id: plain.id })).body).toEqual({ error: 'from: is required; the template has no from to use', code: 'VALIDATION_ERROR' });
    expect((await call('POST', '/emails', { to: 'ada@example.net', subject: 'S', text: 'x' })).body).toEqual({ error: 'from: is required (or give a template that has a from)', code: 'VALIDATION_ERROR' });
    // The template's sender is checked at the send as any sender: a domain not verified is refused.
    const elsewhere = await create({ text: 'Hi', from: 'x@unverified.example.org' });
    expect((await call('POST', '/emails', { to: 'ada@example.net', template_id: elsewhere.id })).body.code).toBe('DOMAIN_NOT_VERIFIED');
    // null removes them.
    expect((await call('PATCH', `/templates/${template.id}`, { from: null, reply_to: null })).body).toMatchObject({ from: null, replyTo: [] });
    expect((await call('POST', '/templates', { name: 'T', subject: 'S', text: 'x', from: 'not an address' })).body).toEqual({ error: expect.stringMatching(/^from: /), code: 'VALIDATION_ERROR' });
  });

  it('wait for the next publish on a published template with drafts, as its content does', async () => {
    const template = await create({ text: 'Hi', from: 'Acme <hello@acme.example.com>', draft: true });
    await call('POST', `/templates/${template.id}/publish`);
    const edited = await call('PATCH', `/templates/${template.id}`, { from: 'Acme Orders <orders@acme.example.com>' });
    expect(edited.body).toMatchObject({ status: 'draft', from: 'Acme Orders <orders@acme.example.com>' });
    expect(await sentEmail(await call('POST', '/emails', { to: 'ada@example.net', template_id: template.id }))).toMatchObject({ from: 'Acme <hello@acme.example.com>' });
    await call('POST', `/templates/${template.id}/publish`);
    expect(await sentEmail(await call('POST', '/emails', { to: 'ada@example.net', template_id: template.id }))).toMatchObject({ from: 'Acme Orders <orders@acme.example.com>' });
  });

  it('keeps an alias unique within the organization (409), refuses one shaped like an id, and does not copy it to a duplicate', async () => {
    const template = await create({ text: 'x', alias: 'order-confirmation' });
    expect(template.alias).toBe('order-confirmation');
    expect((await call('POST', '/templates', { name: 'T', subject: 'S', text: 'x', alias: 'order-confirmation' })).body).toEqual({
      error: 'alias: "order-confirmation" is already another template\'s alias',
      code: 'CONFLICT',
    });
    const second = await create({ text: 'x' });
    expect((await call('PATCH', `/templates/${second.id}`, { alias: 'order-confirmation' })).status).toBe(409);
    expect((await call('PATCH', `/templates/${second.id}`, { alias: 'receipt' })).body.alias).toBe('receipt');
    // Another organization has its own names.
    const other = await app.createOrg({ name: 'Other' });
    expect((await call('POST', '/templates', { name: 'T', subject: 'S', text: 'x', alias: 'order-confirmation' }, other.apiKey)).status).toBe(201);
    for (const alias of ['0190a0a0-0000-7000-8000-000000000000', '', 'has space', '-lead']) {
      expect((await call('POST', '/templates', { name: 'T', subject: 'S', text: 'x', alias })).body, alias).toEqual({ error: expect.stringMatching(/^alias: /), code: 'VALIDATION_ERROR' });
    }
    expect((await call('POST', `/templates/${template.id}/duplicate`)).body.alias).toBeNull();
    expect((await call('PATCH', `/templates/${template.id}`, { alias: null })).body.alias).toBeNull();
  });
});
