import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { domains, emails } from '@/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';

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

const welcome = {
  name: 'Welcome',
  subject: 'Welcome, {{ name | default: "there" }}',
  html: '<h1>Hi {{ name }}</h1>\n<p>Your plan: {{ plan }}</p>\n{% if vip %}<p>VIP {{ vip_code }}</p>{% endif %}',
  text: 'Hi {{ name }}, your plan is {{ plan }}.',
};

async function create(body: Record<string, unknown> = welcome, key = org.apiKey) {
  const response = await app.request('POST', '/api/templates', { key, body });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

const preview = (id: string, variables?: unknown, key = org.apiKey) => {
  const query = variables === undefined ? '' : `?variables=${encodeURIComponent(typeof variables === 'string' ? variables : JSON.stringify(variables))}`;
  return app.request('GET', `/api/templates/${id}/preview${query}`, { key });
};

const refusal = async (body: Record<string, unknown>) => {
  const response = await app.request('POST', '/api/templates', { key: org.apiKey, body: { name: 'T', subject: 'S', ...body } });
  expect(response.status, response.text).toBe(400);
  expect(response.body.code).toBe('VALIDATION_ERROR');
  return response.body.error as string;
};

describe('template CRUD', () => {
  it('creates, reads, updates and deletes a template; variables are found when it is saved', async () => {
    const created = await create();
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Welcome',
      subject: welcome.subject,
      html: welcome.html,
      text: welcome.text,
      variables: ['name', 'plan', 'vip', 'vip_code'],
      // The spec's template: no drafts, every change sent at once.
      status: 'published',
      publishedAt: app.clock.now().toISOString(),
      declaredVariables: [],
      alias: null,
      from: null,
      replyTo: [],
      drafts: false,
      createdAt: app.clock.now().toISOString(),
      updatedAt: app.clock.now().toISOString(),
    });
    expect((await app.request('GET', `/api/templates/${created.id}`, { key: org.apiKey })).body).toEqual(created);

    // Names assigned inside the template are not variables.
    const patched = await app.request('PATCH', `/api/templates/${created.id}`, {
      key: org.apiKey,
      body: { subject: 'Order {{ order.number }}', html: null, text: '{% assign total = order.total | plus: 0 %}Total: {{ total }} for {{ customer }}' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ id: created.id, name: 'Welcome', html: null, variables: ['order', 'customer'] });
    // updatedAt moves forward on every change, even within the same millisecond: it names the version.
    expect(Date.parse(patched.body.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    const renamed = await app.request('PATCH', `/api/templates/${created.id}`, { key: org.apiKey, body: { name: 'Receipt' } });
    expect(renamed.body).toMatchObject({ name: 'Receipt', subject: 'Order {{ order.number }}', variables: ['order', 'customer'] });

    // One of html and text must remain.
    const bare = await app.request('PATCH', `/api/templates/${created.id}`, { key: org.apiKey, body: { text: null } });
    expect(bare.body).toEqual({ error: 'html: give html, text or both', code: 'VALIDATION_ERROR' });

    const deleted = await app.request('DELETE', `/api/templates/${created.id}`, { key: org.apiKey });
    expect(deleted.body).toEqual({ message: 'Template deleted' });
    expect((await app.request('GET', `/api/templates/${created.id}`, { key: org.apiKey })).body).toEqual({ error: 'Template not found', code: 'NOT_FOUND' });
    expect((await app.request('DELETE', `/api/templates/${created.id}`, { key: org.apiKey })).status).toBe(404);
  });

  it('refuses a template without html or text, unknown fields, and fields out of bounds, naming them', async () => {
    expect(await refusal({})).toBe('html: give html, text or both');
    expect(await refusal({ text: 'x', colour: 'red' })).toMatch(/colour/);
    expect(await refusal({ text: 'x', subject: 'Line\nbreak' })).toMatch(/^subject: must not contain CR, LF or NUL/);
    expect(await refusal({ text: 'x', subject: 's'.repeat(999) })).toMatch(/^subject/);
    expect(await refusal({ text: 'x', name: '' })).toMatch(/^name/);
    expect(await refusal({ text: 'x', name: 'n'.repeat(256) })).toMatch(/^name/);
    expect(await refusal({ html: 'é'.repeat(3 * 1024 * 1024) })).toMatch(/^html: html and text together may be at most 5242880 bytes/);
    expect((await app.request('GET', '/api/templates', { key: org.apiKey })).body.data).toEqual([]);
  });

  it('lists templates newest first in cursor pages, without their bodies', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await create({ name: `T${i}`, subject: `S${i}`, text: 'x' })).id);
    const first = await app.request('GET', '/api/templates?limit=2', { key: org.apiKey });
    expect(first.body.data.map((t: { id: string }) => t.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.data[0]).toEqual({ id: ids[4], name: 'T4', alias: null, subject: 'S4', variables: [], status: 'published', publishedAt: expect.any(String), createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect(first.body.nextCursor).toBe(ids[3]);
    const second = await app.request('GET', `/api/templates?limit=2&cursor=${first.body.nextCursor}`, { key: org.apiKey });
    expect(second.body.data.map((t: { id: string }) => t.id)).toEqual([ids[2], ids[1]]);
    const last = await app.request('GET', `/api/templates?limit=2&cursor=${second.body.nextCursor}`, { key: org.apiKey });
    expect(last.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    const all = await app.request('GET', '/api/templates', { key: org.apiKey });
    expect(all.body.data).toHaveLength(5);
    for (const limit of ['0', '101', 'x']) {
      const bad = await app.request('GET', `/api/templates?limit=${limit}`, { key: org.apiKey });
      expect(bad.body, limit).toEqual({ error: expect.stringMatching(/^limit/), code: 'VALIDATION_ERROR' });
    }
  });

  it('lets a test key read and preview templates but not change them; another organization sees none of them', async () => {
    const created = await create();
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    expect((await app.request('GET', `/api/templates/${created.id}`, { key: testKey })).status).toBe(200);
    expect((await app.request('GET', '/api/templates', { key: testKey })).body.data).toHaveLength(1);
    expect((await preview(created.id, { name: 'Ada' }, testKey)).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/api/templates', { name: 'T', subject: 'S', text: 'x' }],
      ['PATCH', `/api/templates/${created.id}`, { name: 'Other' }],
      ['DELETE', `/api/templates/${created.id}`, undefined],
    ] as const) {
      const answer = await app.request(method, path, { key: testKey, body });
      expect(answer.body, `${method} ${path}`).toEqual({ error: 'A test key cannot change live state', code: 'FORBIDDEN' });
    }

    const other = await app.createOrg({ name: 'Other' });
    for (const [method, path, body] of [
      ['GET', `/api/templates/${created.id}`, undefined],
      ['GET', `/api/templates/${created.id}/preview`, undefined],
      ['PATCH', `/api/templates/${created.id}`, { name: 'Mine now' }],
      ['DELETE', `/api/templates/${created.id}`, undefined],
    ] as const) {
      const answer = await app.request(method, path, { key: other.apiKey, body });
      expect(answer.body, `${method} ${path}`).toEqual({ error: 'Template not found', code: 'NOT_FOUND' });
    }
    expect((await app.request('GET', '/api/templates', { key: other.apiKey })).body.data).toEqual([]);
    expect((await app.request('GET', `/api/templates/${created.id}`, { key: org.apiKey })).body).toEqual(created);
  });
});

describe('duplicates', () => {
  it('are new templates with the subject and bodies, named "… (copy)"; the original stays as it was', async () => {
    const original = await create();
    app.clock.advance(1_000);
    const copy = await app.request('POST', `/api/templates/${original.id}/duplicate`, { key: org.apiKey });
    expect(copy.status, copy.text).toBe(201);
    const now = app.clock.now().toISOString();
    expect(copy.body).toEqual({ ...original, id: expect.any(String), name: 'Welcome (copy)', publishedAt: now, createdAt: now, updatedAt: now });
    expect(copy.body.id).not.toBe(original.id);
    expect((await app.request('GET', `/api/templates/${original.id}`, { key: org.apiKey })).body).toEqual(original);
    expect((await app.request('POST', `/api/templates/${copy.body.id}/duplicate`, { key: org.apiKey })).body.name).toBe('Welcome (copy) (copy)');
    const other = await app.createOrg({ name: 'Other' });
    expect((await app.request('POST', `/api/templates/${original.id}/duplicate`, { key: other.apiKey })).status).toBe(404);
  });
});

describe('preview', () => {
  it('escapes variables in the HTML and leaves them plain in the subject and text; defaults apply; missing variables render empty and are listed', async () => {
    const created = await create();
    const answer = await preview(created.id, { name: '<script>alert("x")</script> & Co', plan: 'Pro' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      subject: 'Welcome, <script>alert("x")</script> & Co',
      html: '<h1>Hi &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; Co</h1>\n<p>Your plan: Pro</p>\n',
      text: 'Hi <script>alert("x")</script> & Co, your plan is Pro.',
      missingVariables: ['vip', 'vip_code'],
    });

    // name is read without a default in the html and text: missing there, it is listed too.
    const bare = await preview(created.id);
    expect(bare.body).toEqual({ subject: 'Welcome, there', html: '<h1>Hi </h1>\n<p>Your plan: </p>\n', text: 'Hi , your plan is .', missingVariables: ['name', 'plan', 'vip', 'vip_code'] });
    const vip = await preview(created.id, { name: 'Ada', plan: 'Pro', vip: true, vip_code: 'G<1>' });
    expect(vip.body.html).toBe('<h1>Hi Ada</h1>\n<p>Your plan: Pro</p>\n<p>VIP G&lt;1&gt;</p>');
    expect(vip.body.missingVariables).toEqual([]);
    // null counts as not given.
    expect((await preview(created.id, { name: null, plan: 'Pro', vip: false, vip_code: 1 })).body.missingVariables).toEqual(['name']);
  });

  it('does not list a variable that is only read with a default; | raw opts out of escaping', async () => {
    const created = await create({ name: 'D', subject: 'Hi {{ name | default: "there" }}', html: '<p>{{ name | default: "friend" }}</p>{{ footer | raw }}', text: '{{ name | default: "you" | upcase }}' });
    expect(created.variables).toEqual(['name', 'footer']);
    const answer = await preview(created.id, { footer: '<hr>' });
    expect(answer.body).toEqual({ subject: 'Hi there', html: '<p>friend</p><hr>', text: 'YOU', missingVariables: [] });
    expect((await preview(created.id, { name: 'Ada' })).body).toEqual({ subject: 'Hi Ada', html: '<p>Ada</p>', text: 'ADA', missingVariables: ['footer'] });
  });

  it('refuses variables that are not a JSON object, naming variables', async () => {
    const created = await create();
    for (const variables of ['{"name":', 'not json', '[1,2]', 'null', '42', '"text"']) {
      const answer = await preview(created.id, variables);
      expect(answer.status, variables).toBe(400);
      expect(answer.body, variables).toEqual({ error: expect.stringMatching(/^variables: /), code: 'VALIDATION_ERROR' });
    }
  });

  it('reads nothing from the prototype: constructor, __proto__ and their like render empty', async () => {
    const created = await create({
      name: 'P',
      subject: 'x{{ constructor }}{{ a.constructor }}{{ a.__proto__ }}{{ __proto__ }}{{ a.hasOwnProperty }}{{ toString }}y',
      text: '[{{ constructor.name }}|{{ a.__proto__.constructor }}|{{ list.constructor }}|{{ "x" | split: "" | map: "constructor" }}|{{ list | map: "__proto__" }}{{ list | map: "constructor" }}|{{ a["constructor"] }}]',
      html: '{{ process.env }}{{ global }}{{ require }}',
    });
    const answer = await preview(created.id, { a: { b: 1 }, list: [{ c: 1 }] });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ subject: 'xy', text: '[|||||]', html: '' });
  });
});

describe('what a template may not do', () => {
  it('names the part and line of a syntax error, an unclosed tag, an unknown tag or filter', async () => {
    expect(await refusal({ html: '<p>one</p>\n<p>two</p>\n<p>{{ name | nope }}</p>' })).toBe('html: line 3: undefined filter: nope');
    expect(await refusal({ html: '<p>one</p>\n\n{% if vip %}<p>VIP</p>' })).toBe('html: line 3: tag {% if vip %} not closed');
    expect(await refusal({ text: 'line one\nline two {{ name ' })).toMatch(/^text: line 2: output "\{\{ name " not closed/);
    expect(await refusal({ text: 'ok', subject: 'Hi {% frobnicate %}' })).toMatch(/^subject: line 1: tag "frobnicate" not found/);
    const answer = await app.request('POST', '/api/templates', { key: org.apiKey, body: { name: 'T', subject: 'S', html: '{% if x %}' } });
    expect(answer.status).toBe(400);
  });

  it('refuses include, render and layout: a template reads no file and no other template', async () => {
    for (const tag of ["{% include 'x' %}", "{% render 'x' %}", "{% layout 'x' %}", '{% include "/etc/passwd" %}', '{% render "../../package.json" %}']) {
      const error = await refusal({ html: `<p>a</p>\n${tag}` });
      expect(error, tag).toMatch(/^html: line 2: the (include|render|layout) tag is not allowed: templates cannot read other templates$/);
    }
  });

  it('refuses loops, so a huge one cannot hang rendering', async () => {
    const started = performance.now();
    expect(await refusal({ text: '{% for i in (1..100000000) %}{% for j in (1..100000000) %}x{% endfor %}{% endfor %}' })).toBe(
      'text: line 1: the for tag is not allowed: loops are not allowed in templates',
    );
    expect(await refusal({ html: '<table>{% tablerow i in (1..100000000) %}{{ i }}{% endtablerow %}</table>' })).toMatch(/^html: line 1: the tablerow tag is not allowed/);
    expect(await refusal({ text: '{% liquid\nfor i in (1..100000000)\necho i\nendfor %}' })).toMatch(/^text: line 1: the liquid tag is not allowed/);
    // A hang check, not a speed measure: refused at parse, nothing ever runs.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('bounds what the tags it allows can do: too many markups, or a render that outgrows its memory', async () => {
    expect(await refusal({ text: '{{ a }}'.repeat(1001) })).toBe('text: at most 1000 Liquid tags and outputs ({{ }} and {% %}), found 1001');
    // Each capture doubles the string: 2^40 characters, if nothing stopped it.
    const doubling = await create({ name: 'D', subject: 'S', html: `{% assign a = "xx" %}${'{% capture a %}{{ a }}{{ a }}{% endcapture %}'.repeat(40)}{{ a }}`, text: `{% assign a = "xx" %}${'{% assign a = a | append: a %}'.repeat(40)}{{ a }}` });
    const answer = await preview(doubling.id);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: expect.stringMatching(/^html: (line 1: )?(memory alloc limit exceeded|renders too large)/), code: 'VALIDATION_ERROR' });
  });
});

describe('sending with a template', () => {
  const send = (body: Record<string, unknown>, key = org.apiKey) => app.request('POST', '/api/emails', { key, body: { from: 'Acme <hello@acme.example.com>', to: 'ada@example.net', ...body } });

  it('stores the rendered subject, HTML and text on the email', async () => {
    const created = await create();
    const sent = await send({ template_id: created.id, variables: { name: 'Ada <3', plan: 'Pro' } });
    expect(sent.status, sent.text).toBe(200);
    const email = (await app.request('GET', `/api/emails/${sent.body.id}`, { key: org.apiKey })).body;
    expect(email).toMatchObject({ subject: 'Welcome, Ada <3', html: '<h1>Hi Ada &lt;3</h1>\n<p>Your plan: Pro</p>\n', text: 'Hi Ada <3, your plan is Pro.', status: 'queued' });
    // Without variables: defaults, and the rest empty.
    const bare = await send({ template_id: created.id });
    expect((await app.request('GET', `/api/emails/${bare.body.id}`, { key: org.apiKey })).body).toMatchObject({ subject: 'Welcome, there', text: 'Hi , your plan is .' });
    // A test key sends with the same templates.
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    expect((await send({ template_id: created.id, variables: { name: 'T' } }, testKey)).status).toBe(200);
  });

  it('sends what the template says now: a change is seen by the next send', async () => {
    const created = await create({ name: 'V', subject: 'v1 {{ n }}', text: 'one' });
    const first = await send({ template_id: created.id, variables: { n: 1 } });
    await app.request('PATCH', `/api/templates/${created.id}`, { key: org.apiKey, body: { subject: 'v2 {{ n }}', text: 'two' } });
    const second = await send({ template_id: created.id, variables: { n: 2 } });
    const rows = await app.runtime.deps.db.select({ id: emails.id, subject: emails.subject, text: emails.text }).from(emails);
    expect(rows.find((row) => row.id === first.body.id)).toMatchObject({ subject: 'v1 1', text: 'one' });
    expect(rows.find((row) => row.id === second.body.id)).toMatchObject({ subject: 'v2 2', text: 'two' });
    await app.request('DELETE', `/api/templates/${created.id}`, { key: org.apiKey });
    expect((await send({ template_id: created.id })).body).toEqual({ error: 'Template not found', code: 'NOT_FOUND' });
  });

  it('refuses subject, html or text beside template_id, and variables without it', async () => {
    const created = await create();
    const withSubject = await send({ template_id: created.id, subject: 'Mine' });
    expect(withSubject.body).toEqual({ error: 'subject: cannot be given with template_id (the template gives it)', code: 'VALIDATION_ERROR' });
    expect((await send({ template_id: created.id, html: '<p>x</p>', text: 'x' })).body.error).toMatch(/^html: cannot be given with template_id.*; text: cannot be given/);
    expect((await send({ subject: 'S', text: 'x', variables: { a: 1 } })).body).toEqual({ error: 'variables: only with template_id', code: 'VALIDATION_ERROR' });
    expect((await send({ text: 'x' })).body).toEqual({ error: 'subject: is required (or give template_id)', code: 'VALIDATION_ERROR' });
    expect((await send({ template_id: 'nope' })).body.error).toMatch(/^template_id/);
    expect(await app.runtime.deps.db.select().from(emails)).toHaveLength(0);
  });

  it("answers 404 for another organization's template or none at all", async () => {
    const other = await app.createOrg({ name: 'Other' });
    const theirs = await create(welcome, other.apiKey);
    expect((await send({ template_id: theirs.id })).body).toEqual({ error: 'Template not found', code: 'NOT_FOUND' });
    expect((await send({ template_id: '0190a0a0-0000-7000-8000-000000000000' })).status).toBe(404);
  });

  it('refuses a render that is not a subject an email may carry', async () => {
    const created = await create({ name: 'S', subject: '{{ title }}', text: 'x' });
    expect((await send({ template_id: created.id })).body).toEqual({ error: "subject: the template's subject renders empty; give the variables it needs", code: 'VALIDATION_ERROR' });
    expect((await send({ template_id: created.id, variables: { title: 'Line\r\nBcc: victim@example.com' } })).body).toEqual({
      error: 'subject: renders with a line break or NUL (from the variables)',
      code: 'VALIDATION_ERROR',
    });
    expect((await send({ template_id: created.id, variables: { title: 't'.repeat(999) } })).body.error).toMatch(/^subject: renders longer than 998/);
    expect((await send({ template_id: created.id, variables: { title: 'Fine' } })).status).toBe(200);
  });

  it('renders each batch item on its own; a bad item is that item\'s error', async () => {
    const mine = await create();
    const other = await app.createOrg({ name: 'Other' });
    const theirs = await create(welcome, other.apiKey);
    const item = (body: Record<string, unknown>) => ({ from: 'Acme <hello@acme.example.com>', to: 'ada@example.net', ...body });
    const response = await app.request('POST', '/api/emails/batch', {
      key: org.apiKey,
      body: [
        item({ template_id: mine.id, variables: { name: 'Ada', plan: 'Pro' } }),
        item({ template_id: theirs.id }),
        item({ template_id: mine.id, subject: 'Mine' }),
        item({ subject: 'Plain', text: 'Plain text' }),
        item({ template_id: mine.id, variables: { name: 'Bob' } }),
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toEqual([
      { id: expect.any(String) },
      { error: 'Template not found', code: 'NOT_FOUND' },
      { error: 'subject: cannot be given with template_id (the template gives it)', code: 'VALIDATION_ERROR' },
      { id: expect.any(String) },
      { id: expect.any(String) },
    ]);
    const rows = await app.runtime.deps.db.select({ id: emails.id, subject: emails.subject, text: emails.text }).from(emails);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(rows).toHaveLength(3);
    expect(byId.get(response.body.data[0].id)).toMatchObject({ subject: 'Welcome, Ada', text: 'Hi Ada, your plan is Pro.' });
    expect(byId.get(response.body.data[3].id)).toMatchObject({ subject: 'Plain', text: 'Plain text' });
    expect(byId.get(response.body.data[4].id)).toMatchObject({ subject: 'Welcome, Bob', text: 'Hi Bob, your plan is .' });
  });
});
