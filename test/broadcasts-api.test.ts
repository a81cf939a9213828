import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { broadcasts, emails, events, organizations } from '@/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';
import { sendingOrg } from './support/sending-org';
import { sweepBroadcasts } from '@/server/services/broadcasts/fan-out';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

let org: { organizationId: string; apiKey: string; domainId: string };
let audienceId: string;
beforeEach(async () => {
  await app.reset();
  org = await sendingOrg(app, { plan: '10k' });
  app.dns.mx('acme.test', 'mx.acme.test');
  app.dns.mx('acme.example.com', 'mx.acme.example.com');
  audienceId = (await app.request('POST', '/api/audiences', { key: org.apiKey, body: { name: 'Newsletter' } })).body.id;
  await app.request('POST', `/api/audiences/${audienceId}/contacts/batch`, { key: org.apiKey, body: { contacts: [{ email: 'ada@example.net', name: 'Ada' }, { email: 'grace@example.net' }] } });
});

const HTML = '<p>Hello {{ name | default: "there" }}</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>';
const create = (body: Record<string, unknown> = {}, key = org.apiKey) =>
  app.request('POST', '/api/broadcasts', { key, body: { audience_id: audienceId, from: 'Acme News <news@acme.example.com>', subject: 'November news', html: HTML, ...body } });
const call = (method: string, path: string, body?: unknown, key = org.apiKey) => app.request(method, `/api/broadcasts${path}`, { key, body });
const inAnHour = () => new Date(app.clock.now().getTime() + 3_600_000).toISOString();

describe('drafts', () => {
  it('creates a draft with zero counts, lists it newest first without bodies, and reads it whole', async () => {
    const first = await create({ name: 'First' });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ name: 'First', status: 'draft', audienceId, subject: 'November news', html: HTML, replyTo: [], scheduledAt: null, counts: { recipients: 0, queued: 0, delivered: 0 } });
    const second = await create({ name: undefined });
    expect(second.body.name).toBe('November news');
    const list = await call('GET', '?limit=1');
    expect(list.body.data.map((b: { id: string }) => b.id)).toEqual([second.body.id]);
    expect(list.body.data[0]).not.toHaveProperty('html');
    const next = await call('GET', `?limit=1&cursor=${list.body.nextCursor}`);
    expect(next.body).toMatchObject({ data: [{ id: first.body.id }], nextCursor: null });
    expect((await call('GET', `/${first.body.id}`)).body).toMatchObject({ id: first.body.id, html: HTML });
  });

  it('refuses what cannot be sent: no subject, no body, broken Liquid, both a template and a body, unknown fields', async () => {
    expect((await create({ subject: undefined })).body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining('subject') });
    expect((await create({ html: undefined })).body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining('html') });
    expect((await create({ html: '<p>{% if name %}open</p>' })).body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining('html') });
    expect((await create({ html: '{% for x in y %}{% endfor %}' })).body.code).toBe('VALIDATION_ERROR');
    const template = await app.request('POST', '/api/templates', { key: org.apiKey, body: { name: 'T', subject: 'Hi {{ name }}', html: '<p>x</p>' } });
    expect((await create({ template_id: template.body.id })).body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining('template_id') });
    expect((await create({ from: 'not an address' })).body.code).toBe('VALIDATION_ERROR');
    expect((await create({ colour: 'red' })).body.code).toBe('VALIDATION_ERROR');
    expect(await app.runtime.deps.db.select().from(broadcasts)).toHaveLength(0);
  });

  it("takes a template's subject and bodies; another organization's audience or template is not found", async () => {
    const template = await app.request('POST', '/api/templates', { key: org.apiKey, body: { name: 'Monthly', subject: 'Hi {{ name }}', html: '<p>x</p>' } });
    const made = await create({ subject: undefined, html: undefined, template_id: template.body.id });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ templateId: template.body.id, subject: null, html: null, name: 'Monthly' });
    const other = await app.createOrg({ name: 'Other' });
    const theirAudience = (await app.request('POST', '/api/audiences', { key: other.apiKey, body: { name: 'Theirs' } })).body.id;
    expect((await create({ audience_id: theirAudience })).status).toBe(404);
    const theirTemplate = await app.request('POST', '/api/templates', { key: other.apiKey, body: { name: 'X', subject: 'x', html: 'x' } });
    expect((await create({ subject: undefined, html: undefined, template_id: theirTemplate.body.id })).body).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('changes a draft: giving a template clears the body, giving a body clears the template', async () => {
    const { body } = await create();
    const template = await app.request('POST', '/api/templates', { key: org.apiKey, body: { name: 'T', subject: 'Hi', text: 'x' } });
    const withTemplate = await call('PATCH', `/${body.id}`, { template_id: template.body.id, subject: null });
    expect(withTemplate.body).toMatchObject({ templateId: template.body.id, html: null, text: null, subject: null });
    const back = await call('PATCH', `/${body.id}`, { subject: 'Back', text: 'Plain {{ email }}' });
    expect(back.body).toMatchObject({ templateId: null, subject: 'Back', text: 'Plain {{ email }}' });
    expect((await call('PATCH', `/${body.id}`, { html: '{% if %}' })).body.code).toBe('VALIDATION_ERROR');
  });
});

describe("Resend's segment_id", () => {
  it('is audience_id under its other name, on create and on update; one of the two', async () => {
    const made = await create({ audience_id: undefined, segment_id: audienceId });
    expect(made.status, made.text).toBe(201);
    expect(made.body.audienceId).toBe(audienceId);
    const segment = (await app.request('POST', '/api/segments', { key: org.apiKey, body: { name: 'Customers' } })).body.id;
    expect((await call('PATCH', `/${made.body.id}`, { segment_id: segment })).body.audienceId).toBe(segment);
    expect((await create({ segment_id: audienceId })).body).toEqual({ error: 'segment_id: give audience_id or segment_id (its other name), not both', code: 'VALIDATION_ERROR' });
    expect((await create({ audience_id: undefined })).body).toEqual({ error: 'audience_id: is required (or segment_id, its other name)', code: 'VALIDATION_ERROR' });
    expect((await call('PATCH', `/${made.body.id}`, { audience_id: audienceId, segment_id: segment })).body.code).toBe('VALIDATION_ERROR');
    const other = await app.createOrg({ name: 'Other' });
    expect((await call('PATCH', `/${made.body.id}`, { audience_id: audienceId, segment_id: segment }, other.apiKey)).status).toBe(404);
  });
});

describe("Resend's preview_text", () => {
  const HIDDEN = '<div style="display:none;font-size:1px;line-height:1px;max-height:0;max-width:0;opacity:0;overflow:hidden;mso-hide:all">';

  it('is stored on create and update (null removes it), read back and duplicated', async () => {
    const made = await create({ preview_text: 'Our picks for November' });
    expect(made.status, made.text).toBe(201);
    expect(made.body.previewText).toBe('Our picks for November');
    expect((await call('GET', `/${made.body.id}`)).body.previewText).toBe('Our picks for November');
    expect((await call('POST', `/${made.body.id}/duplicate`)).body.previewText).toBe('Our picks for November');
    expect((await call('PATCH', `/${made.body.id}`, { preview_text: 'Changed' })).body.previewText).toBe('Changed');
    expect((await call('PATCH', `/${made.body.id}`, { name: 'Renamed' })).body.previewText).toBe('Changed');
    expect((await call('PATCH', `/${made.body.id}`, { preview_text: null })).body.previewText).toBeNull();
    expect((await create()).body.previewText).toBeNull();
    expect((await create({ preview_text: 'two\nlines' })).body).toEqual({ error: 'preview_text: must not contain CR, LF or NUL', code: 'VALIDATION_ERROR' });
    expect((await create({ preview_text: 'x'.repeat(501) })).body.error).toMatch(/^preview_text/);
    const other = await app.createOrg({ name: 'Other' });
    expect((await call('PATCH', `/${made.body.id}`, { preview_text: 'Mine' }, other.apiKey)).status).toBe(404);
  });

  it('goes hidden, HTML-escaped, at the start of the body of every copy: test copies and the fan-out; a text-only broadcast is left as it is', async () => {
    const { body } = await create({ html: '<html><body class="x"><p>Hi {{ name }}</p></body></html>', preview_text: 'Sale: 50% <off> & "more"' });
    const test = await call('POST', `/${body.id}/test`, { to: ['owner@acme.test'] });
    const [copy] = await app.runtime.deps.db.select().from(emails).where(eq(emails.id, test.body.data[0].id));
    expect(copy!.html).toBe(`<html><body class="x">${HIDDEN}Sale: 50% &lt;off&gt; &amp; &quot;more&quot;</div><p>Hi Sample contact</p></body></html>`);

    expect((await call('POST', `/${body.id}/send`)).status).toBe(200);
    while ((await sweepBroadcasts(app.runtime.deps)).outcomes.more);
    const sent = await app.runtime.deps.db.select({ html: emails.html }).from(emails).where(eq(emails.broadcastId, body.id));
    expect(sent).toHaveLength(2);
    for (const row of sent) expect(row.html?.startsWith(`<html><body class="x">${HIDDEN}Sale: 50% &lt;off&gt;`), row.html ?? '').toBe(true);

    // Without a body tag it comes first; without html there is no place for it.
    const bare = (await create({ html: '<p>Hi</p>', preview_text: 'Pre' })).body;
    const bareCopy = await call('POST', `/${bare.id}/test`, { to: ['owner@acme.test'] });
    expect((await app.runtime.deps.db.select({ html: emails.html }).from(emails).where(eq(emails.id, bareCopy.body.data[0].id)))[0]!.html).toBe(`${HIDDEN}Pre</div><p>Hi</p>`);
    const textOnly = (await create({ html: undefined, text: 'Hi', preview_text: 'Pre' })).body;
    const textCopy = await call('POST', `/${textOnly.id}/test`, { to: ['owner@acme.test'] });
    expect((await app.runtime.deps.db.select({ html: emails.html, text: emails.text }).from(emails).where(eq(emails.id, textCopy.body.data[0].id)))[0]).toEqual({ html: null, text: 'Hi' });
  });
});

describe('duplicates', () => {
  it('are new drafts with the audience, sender and content, whatever the status of the one copied', async () => {
    const original = (await create({ name: 'November', reply_to: ['help@acme.example.com'] })).body;
    expect((await call('POST', `/${original.id}/send`, { scheduled_at: inAnHour() })).body.status).toBe('scheduled');
    const copy = await call('POST', `/${original.id}/duplicate`);
    expect(copy.status, copy.text).toBe(201);
    expect(copy.body).toMatchObject({ name: 'November (copy)', status: 'draft', audienceId, from: original.from, replyTo: ['help@acme.example.com'], subject: 'November news', html: HTML, scheduledAt: null, counts: { recipients: 0 } });
    expect(copy.body.id).not.toBe(original.id);
    expect((await call('GET', `/${original.id}`)).body.status).toBe('scheduled');

    const template = await app.request('POST', '/api/templates', { key: org.apiKey, body: { name: 'Monthly', subject: 'Hi {{ name }}', html: '<p>x</p>' } });
    const byTemplate = (await create({ subject: undefined, html: undefined, template_id: template.body.id, name: 'x'.repeat(200) })).body;
    const longCopy = await call('POST', `/${byTemplate.id}/duplicate`);
    expect(longCopy.body).toMatchObject({ templateId: template.body.id, html: null, subject: null });
    expect(longCopy.body.name).toBe(`${'x'.repeat(193)} (copy)`);

    const other = await app.createOrg({ name: 'Other' });
    expect((await call('POST', `/${original.id}/duplicate`, undefined, other.apiKey)).status).toBe(404);
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    expect((await call('POST', `/${original.id}/duplicate`, undefined, testKey)).status).toBe(403);
  });
});

describe('scheduling, sending and their refusals', () => {
  it('schedules with PATCH scheduled_at, moves it, takes it back to draft with null, and sends it later on send', async () => {
    const { body } = await create();
    const at = inAnHour();
    const scheduled = await call('PATCH', `/${body.id}`, { scheduled_at: at });
    expect(scheduled.body).toMatchObject({ status: 'scheduled', scheduledAt: at });
    const moved = new Date(app.clock.now().getTime() + 7_200_000).toISOString();
    expect((await call('PATCH', `/${body.id}`, { scheduled_at: moved })).body).toMatchObject({ status: 'scheduled', scheduledAt: moved });
    expect((await call('PATCH', `/${body.id}`, { scheduled_at: null })).body).toMatchObject({ status: 'draft', scheduledAt: null });
    expect((await call('POST', `/${body.id}/send`, { scheduled_at: at })).body).toMatchObject({ status: 'scheduled', scheduledAt: at });
    expect((await call('PATCH', `/${body.id}`, { scheduled_at: new Date(app.clock.now().getTime() - 1000).toISOString() })).body.code).toBe('VALIDATION_ERROR');
    const logged = await app.runtime.deps.db.select({ type: events.type }).from(events).where(eq(events.organizationId, org.organizationId));
    expect(logged.filter((e) => e.type === 'broadcast.scheduled')).toHaveLength(3);
  });

  it('sends now: sending with the audience counted; a second send, a PATCH and a DELETE are conflicts', async () => {
    const { body } = await create();
    const sent = await call('POST', `/${body.id}/send`);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toMatchObject({ status: 'sending', counts: { recipients: 2 }, startedAt: app.clock.now().toISOString() });
    for (const [method, path, payload] of [
      ['POST', '/send', undefined],
      ['PATCH', '', { name: 'x' }],
      ['DELETE', '', undefined],
    ] as const) {
      const response = await call(method, `/${body.id}${path}`, payload);
      expect(response.status, `${method} ${path}`).toBe(409);
      expect(response.body.code).toBe('CONFLICT');
    }
  });

  it('refuses a send on Free (403 PLAN_LIMIT_EXCEEDED), from an unverified domain, and from a restricted account', async () => {
    const { body } = await create();
    await app.runtime.deps.db.update(organizations).set({ plan: 'free' }).where(eq(organizations.id, org.organizationId));
    expect((await call('POST', `/${body.id}/send`)).body.code).toBe('PLAN_LIMIT_EXCEEDED');
    expect((await call('PATCH', `/${body.id}`, { scheduled_at: inAnHour() })).body.code).toBe('PLAN_LIMIT_EXCEEDED');
    await app.runtime.deps.db.update(organizations).set({ plan: '10k', status: 'restricted' }).where(eq(organizations.id, org.organizationId));
    expect((await call('POST', `/${body.id}/send`)).body.code).toBe('ACCOUNT_RESTRICTED');
    await app.runtime.deps.db.update(organizations).set({ status: 'active' }).where(eq(organizations.id, org.organizationId));
    const unverified = await create({ from: 'News <news@elsewhere.example.org>' });
    expect((await call('POST', `/${unverified.body.id}/send`)).body.code).toBe('DOMAIN_NOT_VERIFIED');
    const rows = await app.runtime.deps.db.select({ status: broadcasts.status }).from(broadcasts);
    expect(rows.every((row) => row.status === 'draft')).toBe(true);
  });

  it('cancels a scheduled broadcast; a cancelled one may be deleted, a draft cannot be cancelled', async () => {
    const { body } = await create();
    expect((await call('POST', `/${body.id}/cancel`)).status).toBe(409);
    await call('POST', `/${body.id}/send`, { scheduled_at: inAnHour() });
    const cancelled = await call('POST', `/${body.id}/cancel`);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelledAt: expect.any(String) });
    expect((await call('POST', `/${body.id}/cancel`)).status).toBe(409);
    expect((await call('POST', `/${body.id}/send`)).status).toBe(409);
    expect((await call('DELETE', `/${body.id}`)).status).toBe(200);
    expect((await call('GET', `/${body.id}`)).status).toBe(404);
  });

  it('keeps the audience from being deleted while a broadcast to it is scheduled, and lets it go once cancelled', async () => {
    const { body } = await create();
    await call('POST', `/${body.id}/send`, { scheduled_at: inAnHour() });
    const refused = await app.request('DELETE', `/api/audiences/${audienceId}`, { key: org.apiKey });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CONFLICT', error: expect.stringContaining('scheduled') });
    await call('POST', `/${body.id}/cancel`);
    expect((await app.request('DELETE', `/api/audiences/${audienceId}`, { key: org.apiKey })).status).toBe(200);
    expect((await call('GET', `/${body.id}`)).body).toMatchObject({ audienceId: null, status: 'cancelled' });
  });

  it('lets a test key read broadcasts but not create, send or cancel them', async () => {
    const { body } = await create();
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    expect((await call('GET', `/${body.id}`, undefined, testKey)).status).toBe(200);
    expect((await create({}, testKey)).body.code).toBe('FORBIDDEN');
    expect((await call('POST', `/${body.id}/send`, undefined, testKey)).body.code).toBe('FORBIDDEN');
  });
});

describe('test copies', () => {
  it("go to the owner's address or a verified domain's, with [Test] and sample values, on every plan", async () => {
    await app.runtime.deps.db.update(organizations).set({ plan: 'free' }).where(eq(organizations.id, org.organizationId));
    const { body } = await create({ subject: 'Hi {{ name }}' });
    const sent = await call('POST', `/${body.id}/test`, { to: ['owner@acme.test', 'team@acme.example.com'] });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.data).toHaveLength(2);
    const [copy] = await app.runtime.deps.db.select().from(emails).where(eq(emails.id, sent.body.data[0].id));
    expect(copy).toMatchObject({ subject: '[Test] Hi Sample contact', to: ['owner@acme.test'], status: 'queued', broadcastId: null });
    expect(copy!.html).toContain('Hello Sample contact');
    expect((await call('GET', `/${body.id}`)).body.status).toBe('draft');
  });

  it('refuse anyone else (403), more than five addresses (400), and past the daily ceiling (429)', async () => {
    const { body } = await create();
    const stranger = await call('POST', `/${body.id}/test`, { to: ['owner@acme.test', 'someone@example.net'] });
    expect(stranger.status).toBe(403);
    expect(stranger.body).toMatchObject({ code: 'FORBIDDEN', error: expect.stringContaining('someone@example.net') });
    expect((await call('POST', `/${body.id}/test`, { to: Array.from({ length: 6 }, (_, i) => `t${i}@acme.example.com`) })).body.code).toBe('VALIDATION_ERROR');
    expect((await call('POST', `/${body.id}/test`, { to: [] })).body.code).toBe('VALIDATION_ERROR');
    await app.runtime.deps.db.update(organizations).set({ plan: 'free' }).where(eq(organizations.id, org.organizationId));
    for (let i = 0; i < 20; i += 1) {
      const ok = await call('POST', `/${body.id}/test`, { to: ['a@acme.example.com', 'b@acme.example.com', 'c@acme.example.com', 'd@acme.example.com', 'e@acme.example.com'] });
      expect(ok.status, ok.text).toBe(200);
    }
    const over = await call('POST', `/${body.id}/test`, { to: ['owner@acme.test'] });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('DAILY_LIMIT_EXCEEDED');
    const copies = await app.runtime.deps.db.select({ id: emails.id }).from(emails).where(and(eq(emails.organizationId, org.organizationId)));
    expect(copies).toHaveLength(100);
  });
});
