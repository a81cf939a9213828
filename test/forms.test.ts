import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditEvents, domains, formConsentTexts } from '@/db/schema';
import { FORM_LIMIT } from '@/server/services/forms';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

const ORIGINS = ['https://www.example.com'];

async function setUp() {
  const org = await app.createOrg();
  const key = org.apiKey;
  const audience = (await app.request('POST', '/api/audiences', { key, body: { name: 'Newsletter' } })).body;
  return { ...org, key, audienceId: audience.id as string };
}

const create = (key: string, body: Record<string, unknown>) => app.request('POST', '/api/forms', { key, body });
const baseBody = (audienceId: string) => ({ name: 'Newsletter sign-up', audience_id: audienceId, consent_text: 'Yes, send me the monthly newsletter. I can unsubscribe at any time.', allowed_origins: ORIGINS });

async function verifiedDomain(key: string, organizationId: string, name: string, verified = true) {
  const domain = await app.request('POST', '/api/domains', { key, body: { name } });
  expect(domain.status, domain.text).toBe(201);
  if (verified) await app.runtime.deps.db.update(domains).set({ status: 'verified', verifiedAt: app.clock.now() }).where(and(eq(domains.id, domain.body.id), eq(domains.organizationId, organizationId)));
  return domain.body.id as string;
}

describe('forms: create, read, change, delete', () => {
  it('creates a form with its fields, a random public key, an endpoint and a snippet', async () => {
    const { key, audienceId } = await setUp();
    const topic = await app.request('POST', '/api/topics', { key, body: { name: 'Product news', default_subscription: 'opt_out' } });
    const property = await app.request('POST', '/api/contact-properties', { key, body: { key: 'company', type: 'string' } });
    expect([topic.status, property.status]).toEqual([201, 201]);
    const response = await create(key, {
      ...baseBody(audienceId),
      topic_ids: [topic.body.id],
      fields: { first_name: true, last_name: false, properties: ['company'] },
      success_url: 'https://www.example.com/thanks',
      error_url: 'https://www.example.com/oops',
    });
    expect(response.status, response.text).toBe(201);
    const form = response.body;
    expect(form).toMatchObject({
      name: 'Newsletter sign-up',
      audienceId,
      topicIds: [topic.body.id],
      fields: { email: true, firstName: true, lastName: false, properties: ['company'] },
      consentText: 'Yes, send me the monthly newsletter. I can unsubscribe at any time.',
      consentVersion: 1,
      doubleOptIn: false,
      domainId: null,
      successUrl: 'https://www.example.com/thanks',
      errorUrl: 'https://www.example.com/oops',
      allowedOrigins: ORIGINS,
    });
    expect(form.formKey).toMatch(/^frm_[A-Za-z0-9_-]{22}$/);
    expect(form.formKey).not.toContain(form.id);
    expect(form.endpoint).toBe(`http://127.0.0.1:3000/f/${form.formKey}`);
    expect(form.snippet).toContain(`action="${form.endpoint}"`);
    expect(form.snippet).toContain('name="email"');
    expect(form.snippet).toContain('name="first_name"');
    expect(form.snippet).not.toContain('name="last_name"');
    expect(form.snippet).toContain('name="properties.company"');
    expect(form.snippet).toContain('name="website"');
    expect(form.snippet).toContain('name="_fill_ms"');
    expect(form.snippet).toContain('Yes, send me the monthly newsletter.');
    const got = await app.request('GET', `/api/forms/${form.id}`, { key });
    expect(got.body).toEqual(form);
  });

  it('takes segment_id as the audience, but not both names', async () => {
    const { key, audienceId } = await setUp();
    const { audience_id: _, ...rest } = baseBody(audienceId);
    const aliased = await create(key, { ...rest, segment_id: audienceId });
    expect(aliased.status, aliased.text).toBe(201);
    expect(aliased.body.audienceId).toBe(audienceId);
    const both = await create(key, { ...baseBody(audienceId), segment_id: audienceId });
    expect(both.status).toBe(400);
    expect(both.body.code).toBe('VALIDATION_ERROR');
    const neither = await create(key, rest);
    expect(neither.status).toBe(400);
  });

  it('refuses a target, topics and properties that are not the organization\'s, and malformed URLs and origins', async () => {
    const { key, audienceId } = await setUp();
    const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
    const otherAudience = (await app.request('POST', '/api/audiences', { key: other.apiKey, body: { name: 'Theirs' } })).body.id;
    const otherTopic = (await app.request('POST', '/api/topics', { key: other.apiKey, body: { name: 'Theirs', default_subscription: 'opt_in' } })).body.id;
    const ruled = await app.request('POST', '/api/segments', { key, body: { name: 'Openers', rules: { conditions: [{ type: 'engagement', activity: 'opened_or_clicked', within_days: 30 }] } } });
    expect(ruled.status, ruled.text).toBe(201);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ audience_id: otherAudience }, 404, 'NOT_FOUND'],
      [{ topic_ids: [otherTopic] }, 404, 'NOT_FOUND'],
      [{ fields: { properties: ['nope'] } }, 400, 'VALIDATION_ERROR'],
      [{ allowed_origins: [] }, 400, 'VALIDATION_ERROR'],
      [{ allowed_origins: ['https://www.example.com/page'] }, 400, 'VALIDATION_ERROR'],
      [{ allowed_origins: ['ftp://www.example.com'] }, 400, 'VALIDATION_ERROR'],
      [{ success_url: 'javascript:alert(1)' }, 400, 'VALIDATION_ERROR'],
      [{ error_url: '/relative' }, 400, 'VALIDATION_ERROR'],
      [{ consent_text: '  ' }, 400, 'VALIDATION_ERROR'],
      [{ unknown_field: 1 }, 400, 'VALIDATION_ERROR'],
    ];
    cases.push([{ audience_id: ruled.body.id }, 409, 'CONFLICT']);
    for (const [change, status, code] of cases) {
      const response = await create(key, { ...baseBody(audienceId), ...change });
      expect(response.status, `${JSON.stringify(change)}: ${response.text}`).toBe(status);
      expect(response.body).toEqual({ error: expect.any(String), code });
    }
    expect((await app.request('GET', '/api/forms', { key })).body.data).toEqual([]);
  });

  it('cannot turn double opt-in on without a verified domain of the organization', async () => {
    const { key, organizationId, audienceId } = await setUp();
    const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
    const pending = await verifiedDomain(key, organizationId, 'pending-example.com', false);
    const verified = await verifiedDomain(key, organizationId, 'news-example.com');
    const theirs = await verifiedDomain(other.apiKey, other.organizationId, 'theirs-example.com');

    const withoutDomain = await create(key, { ...baseBody(audienceId), double_opt_in: true });
    expect(withoutDomain.status).toBe(400);
    expect(withoutDomain.body).toEqual({ error: expect.stringContaining('domain_id'), code: 'VALIDATION_ERROR' });
    const unverified = await create(key, { ...baseBody(audienceId), double_opt_in: true, domain_id: pending });
    expect(unverified.status).toBe(403);
    expect(unverified.body).toEqual({ error: expect.stringContaining('pending-example.com'), code: 'DOMAIN_NOT_VERIFIED' });
    const foreign = await create(key, { ...baseBody(audienceId), double_opt_in: true, domain_id: theirs });
    expect(foreign.status).toBe(404);

    const single = await create(key, baseBody(audienceId));
    const turnedOn = await app.request('PATCH', `/api/forms/${single.body.id}`, { key, body: { double_opt_in: true } });
    expect(turnedOn.status).toBe(400);
    expect(turnedOn.body.code).toBe('VALIDATION_ERROR');
    const withDomain = await app.request('PATCH', `/api/forms/${single.body.id}`, { key, body: { double_opt_in: true, domain_id: verified } });
    expect(withDomain.status, withDomain.text).toBe(200);
    expect(withDomain.body).toMatchObject({ doubleOptIn: true, domainId: verified });
    // The domain cannot be taken away while double opt-in is on.
    const dropped = await app.request('PATCH', `/api/forms/${single.body.id}`, { key, body: { domain_id: null } });
    expect(dropped.status).toBe(400);
    const off = await app.request('PATCH', `/api/forms/${single.body.id}`, { key, body: { double_opt_in: false, domain_id: null } });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ doubleOptIn: false, domainId: null });
  });

  it("names a confirmation template as POST /contacts does (the organization's, published, showing the link), and a template a form names is not deleted", async () => {
    const { key, organizationId, audienceId } = await setUp();
    const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
    const template = async (owner: string, html: string, draft = false) => {
      const made = await app.request('POST', '/api/templates', { key: owner, body: { name: 'Confirm', subject: 'Please confirm', html, ...(draft ? { draft: true } : {}) } });
      expect(made.status, made.text).toBe(201);
      return made.body.id as string;
    };
    const good = await template(key, '<p><a href="{{ confirmation_url }}">Confirm</a> within {{ expires_in_days }} days</p>');
    const unpublished = await template(key, '<p>{{ confirmation_url }}</p>', true);
    const noLink = await template(key, '<p>Hello {{ name }}</p>');
    const theirs = await template(other.apiKey, '<p>{{ confirmation_url }}</p>');
    const refusals: Array<[unknown, number, string, RegExp]> = [
      [unpublished, 400, 'VALIDATION_ERROR', /^confirmation_template_id: .*published/],
      [noLink, 400, 'VALIDATION_ERROR', /^confirmation_template_id: .*\{\{ confirmation_url \}\}/],
      [theirs, 404, 'NOT_FOUND', /Template/],
      ['not-a-uuid', 400, 'VALIDATION_ERROR', /confirmation_template_id/],
    ];
    for (const [id, status, code, words] of refusals) {
      const response = await create(key, { ...baseBody(audienceId), confirmation_template_id: id });
      expect(response.status, `${String(id)}: ${response.text}`).toBe(status);
      expect(response.body).toEqual({ error: expect.stringMatching(words), code });
    }
    expect((await app.request('GET', '/api/forms', { key })).body.data).toEqual([]);

    const plain = await create(key, baseBody(audienceId));
    expect(plain.body.confirmationTemplateId).toBeNull();
    const form = await create(key, { ...baseBody(audienceId), confirmation_template_id: good });
    expect(form.status, form.text).toBe(201);
    expect(form.body.confirmationTemplateId).toBe(good);
    expect((await app.request('GET', `/api/forms/${form.body.id}`, { key })).body.confirmationTemplateId).toBe(good);
    // A change to a template that cannot confirm is refused as at creation, and changes nothing.
    const patched = await app.request('PATCH', `/api/forms/${form.body.id}`, { key, body: { confirmation_template_id: noLink } });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toMatch(/^confirmation_template_id:/);
    expect((await app.request('PATCH', `/api/forms/${form.body.id}`, { key, body: { confirmation_template_id: theirs } })).status).toBe(404);
    expect((await app.request('GET', `/api/forms/${form.body.id}`, { key })).body.confirmationTemplateId).toBe(good);

    // Deleting the template would change every new subscriber's mail behind the form's back: 409, naming the form.
    const refused = await app.request('DELETE', `/api/templates/${good}`, { key });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: expect.stringContaining('"Newsletter sign-up"'), code: 'CONFLICT' });
    expect((await app.request('GET', `/api/templates/${good}`, { key })).status).toBe(200);
    // Back to the built-in text, the template can go.
    const builtIn = await app.request('PATCH', `/api/forms/${form.body.id}`, { key, body: { confirmation_template_id: null } });
    expect(builtIn.status, builtIn.text).toBe(200);
    expect(builtIn.body.confirmationTemplateId).toBeNull();
    expect((await app.request('DELETE', `/api/templates/${good}`, { key })).status).toBe(200);
    const updates = await app.runtime.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.targetId, form.body.id), eq(auditEvents.action, 'form.updated')));
    expect(updates.map((entry) => (entry.details as { fields: string[] }).fields)).toEqual([['confirmation_template_id']]);
  });

  it('keeps every version of the consent text: a change makes a new one, the same text does not', async () => {
    const { key, audienceId } = await setUp();
    const form = (await create(key, baseBody(audienceId))).body;
    const same = await app.request('PATCH', `/api/forms/${form.id}`, { key, body: { consent_text: form.consentText } });
    expect(same.body.consentVersion).toBe(1);
    const changed = await app.request('PATCH', `/api/forms/${form.id}`, { key, body: { consent_text: 'Yes, send me the weekly digest.' } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ consentVersion: 2, consentText: 'Yes, send me the weekly digest.' });
    expect(changed.body.snippet).toContain('weekly digest');
    // Deleted, the form keeps its texts: ledger entries name them.
    expect((await app.request('DELETE', `/api/forms/${form.id}`, { key })).status).toBe(200);
    const texts = await app.runtime.deps.db.select().from(formConsentTexts).where(eq(formConsentTexts.formId, form.id)).orderBy(formConsentTexts.version);
    expect(texts.map((row) => [row.version, row.text])).toEqual([
      [1, 'Yes, send me the monthly newsletter. I can unsubscribe at any time.'],
      [2, 'Yes, send me the weekly digest.'],
    ]);
    expect((await app.request('GET', `/api/forms/${form.id}`, { key })).status).toBe(404);
  });

  it('lists forms newest first in pages', async () => {
    const { key, audienceId } = await setUp();
    const ids: string[] = [];
    for (const name of ['One', 'Two', 'Three']) ids.push((await create(key, { ...baseBody(audienceId), name })).body.id);
    const first = await app.request('GET', '/api/forms?limit=2', { key });
    expect(first.body.data.map((form: { name: string }) => form.name)).toEqual(['Three', 'Two']);
    expect(first.body.nextCursor).toBe(ids[1]);
    const second = await app.request('GET', `/api/forms?limit=2&cursor=${first.body.nextCursor}`, { key });
    expect(second.body.data.map((form: { name: string }) => form.name)).toEqual(['One']);
    expect(second.body.nextCursor).toBeNull();
  });

  it('writes form.created, form.updated and form.deleted to the audit log', async () => {
    const { key, organizationId, audienceId } = await setUp();
    const form = (await create(key, baseBody(audienceId))).body;
    await app.request('PATCH', `/api/forms/${form.id}`, { key, body: { name: 'Renamed', consent_text: 'New words' } });
    await app.request('DELETE', `/api/forms/${form.id}`, { key });
    const entries = await app.runtime.deps.db.select().from(auditEvents).where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.targetType, 'form'))).orderBy(auditEvents.id);
    expect(entries.map((entry) => [entry.action, entry.targetId])).toEqual([
      ['form.created', form.id],
      ['form.updated', form.id],
      ['form.deleted', form.id],
    ]);
    expect(entries[1]!.details).toMatchObject({ fields: ['name', 'consent_text'], consentVersion: 2 });
  });

  it('holds keys to the usual rules: sending_access 403, test keys read but do not write, another organization\'s form is not found', async () => {
    const { key, organizationId, audienceId } = await setUp();
    const form = (await create(key, baseBody(audienceId))).body;
    const sending = await keyFor(app, organizationId, 'sending_access', 'live');
    const test = await keyFor(app, organizationId, 'full_access', 'test');
    expect((await app.request('GET', '/api/forms', { key: sending })).status).toBe(403);
    expect((await app.request('GET', `/api/forms/${form.id}`, { key: test })).status).toBe(200);
    const write = await create(test, baseBody(audienceId));
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('FORBIDDEN');
    const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
    for (const [method, path] of [['GET', `/api/forms/${form.id}`], ['PATCH', `/api/forms/${form.id}`], ['DELETE', `/api/forms/${form.id}`], ['GET', `/api/forms/${form.id}/submissions`]] as const) {
      const response = await app.request(method, path, { key: other.apiKey, body: method === 'PATCH' ? { name: 'Mine now' } : undefined });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect((await app.request('GET', `/api/forms/${form.id}`, { key })).body.name).toBe('Newsletter sign-up');
  });

  it(`refuses a form past ${FORM_LIMIT} (409)`, async () => {
    const { key, audienceId } = await setUp();
    for (let index = 0; index < FORM_LIMIT; index += 1) expect((await create(key, { ...baseBody(audienceId), name: `Form ${index}` })).status).toBe(201);
    const past = await create(key, baseBody(audienceId));
    expect(past.status).toBe(409);
    expect(past.body.code).toBe('CONFLICT');
  });
});
