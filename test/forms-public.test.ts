import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { chromium } from 'playwright';
import { audienceMemberships, consentEntries, contacts, contactTopics, domains, emails, events, formSubmissions, organizations } from '@/db/schema';
import { FORM_SUBMIT_LIMITS } from '@/server/http/public-entry-limit';
import { FORM_BODY_LIMIT_BYTES } from '@/server/http/forms';
import { applyRetention } from '@/server/services/emails/retention';
import { DAY_MS } from '@/server/services/shared/time';
import { startTestApp, type TestApp } from './support/app';

/*
 * The public endpoint of a sign-up form, POST /f/{formKey}, as pages on other origins and scripts
 * reach it. The app trusts loopback as a proxy, so each request can name its client address in
 * X-Forwarded-For and the per-address bucket is tested apart from the others.
 */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { TRUSTED_PROXY_CIDRS: '127.0.0.1/32' } });
});
afterAll(() => app.close());
beforeEach(async () => {
  await app.reset();
  app.dns.mx('example.net', 'mx.example.net');
});

const PAGE_ORIGIN = 'https://www.shop.example';
const UA = 'Mozilla/5.0 (forms test)';
let clientCounter = 0;
/** A fresh client address per call, so only the bucket a test is about fills. */
const freshClient = () => `203.0.113.${(clientCounter = (clientCounter % 250) + 1)}`;

interface Setup {
  key: string;
  organizationId: string;
  audienceId: string;
  topicId: string;
  form: { id: string; formKey: string; consentVersion: number };
}

async function setUp(overrides: Record<string, unknown> = {}): Promise<Setup> {
  const org = await app.createOrg();
  const key = org.apiKey;
  const audience = await app.request('POST', '/api/audiences', { key, body: { name: 'Newsletter' } });
  const topic = await app.request('POST', '/api/topics', { key, body: { name: 'Offers', default_subscription: 'opt_out' } });
  const property = await app.request('POST', '/api/contact-properties', { key, body: { key: 'seats', type: 'number' } });
  expect([audience.status, topic.status, property.status]).toEqual([201, 201, 201]);
  const form = await app.request('POST', '/api/forms', {
    key,
    body: {
      name: 'Newsletter',
      audience_id: audience.body.id,
      topic_ids: [topic.body.id],
      fields: { first_name: true, last_name: true, properties: ['seats'] },
      consent_text: 'Yes, send me the newsletter and offers.',
      allowed_origins: [PAGE_ORIGIN],
      ...overrides,
    },
  });
  expect(form.status, form.text).toBe(201);
  return { key, organizationId: org.organizationId, audienceId: audience.body.id, topicId: topic.body.id, form: form.body };
}

interface PostOptions {
  origin?: string | null;
  client?: string;
  json?: boolean;
  raw?: string | Uint8Array<ArrayBuffer>;
  contentType?: string;
  method?: string;
}

/** A submission as a browser or a script sends it; redirects are not followed. */
async function post(formKey: string, fields: Record<string, unknown>, options: PostOptions = {}) {
  const headers: Record<string, string> = { 'user-agent': UA, 'x-forwarded-for': options.client ?? freshClient() };
  if (options.origin !== null) headers.origin = options.origin ?? PAGE_ORIGIN;
  const json = options.json ?? true;
  headers['content-type'] = options.contentType ?? (json ? 'application/json' : 'application/x-www-form-urlencoded');
  const body =
    options.raw ??
    (json
      ? JSON.stringify(fields)
      : new URLSearchParams(Object.entries(fields).map(([name, value]) => [name, String(value)])).toString());
  const response = await fetch(`${app.url}/f/${formKey}`, { method: options.method ?? 'POST', headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

const person = (email: string, extra: Record<string, unknown> = {}) => ({ email, first_name: 'Ada', last_name: 'Lovelace', 'properties.seats': '12', _fill_ms: 4_000, website: '', ...extra });
const personJson = (email: string, extra: Record<string, unknown> = {}) => ({ email, first_name: 'Ada', last_name: 'Lovelace', properties: { seats: 12 }, _fill_ms: 4_000, ...extra });

const db = () => app.runtime.deps.db;
const contactOf = async (organizationId: string, email: string) =>
  (await db().select().from(contacts).where(and(eq(contacts.organizationId, organizationId), eq(contacts.email, email))))[0];
const submissionsOf = (formId: string) => db().select().from(formSubmissions).where(eq(formSubmissions.formId, formId)).orderBy(asc(formSubmissions.id));
const ledgerOf = (organizationId: string, email: string) =>
  db().select().from(consentEntries).where(and(eq(consentEntries.organizationId, organizationId), eq(consentEntries.email, email))).orderBy(asc(consentEntries.id));

describe('a submission from a page on another origin', () => {
  it('answers the preflight of an allowed origin, subscribes the contact in one transaction and writes the ledger entries', async () => {
    const { organizationId, audienceId, topicId, form } = await setUp();
    const preflight = await fetch(`${app.url}/f/${form.formKey}`, {
      method: 'OPTIONS',
      headers: { origin: PAGE_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');

    const client = freshClient();
    const response = await post(form.formKey, personJson('ada@example.net'), { client });
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
    expect(response.body).toEqual({ message: 'Thank you: your subscription is recorded' });

    const contact = await contactOf(organizationId, 'ada@example.net');
    expect(contact).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', name: 'Ada Lovelace', unsubscribed: false, properties: { seats: 12 } });
    const [membership] = await db().select().from(audienceMemberships).where(eq(audienceMemberships.contactId, contact!.id));
    expect(membership).toMatchObject({ audienceId, subscribed: true });
    const [choice] = await db().select().from(contactTopics).where(eq(contactTopics.contactId, contact!.id));
    expect(choice).toMatchObject({ topicId, subscribed: true });

    const [submission] = await submissionsOf(form.id);
    expect(submission).toMatchObject({ contactId: contact!.id, email: 'ada@example.net', status: 'subscribed', formVersion: 1, clientAddress: client, userAgent: UA });

    const ledger = await ledgerOf(organizationId, 'ada@example.net');
    expect(ledger.map((entry) => [entry.action, entry.audienceId, entry.topicId])).toEqual([
      ['subscribed', null, null],
      ['subscribed', audienceId, null],
      ['topic_in', null, topicId],
    ]);
    for (const entry of ledger) {
      expect(entry).toMatchObject({ via: 'form', formId: form.id, formVersion: 1, clientAddress: client, userAgent: UA, contactId: contact!.id, apiKeyId: null });
    }

    const listed = await app.request('GET', `/api/forms/${form.id}/submissions`, { key: (await setUpKey(organizationId)) });
    expect(listed.body.data).toEqual([expect.objectContaining({ email: 'ada@example.net', status: 'subscribed', formVersion: 1, firstName: 'Ada', properties: { seats: 12 } })]);
  });

  it('records the consent text version the person was shown', async () => {
    const { key, organizationId, form } = await setUp();
    await app.request('PATCH', `/api/forms/${form.id}`, { key, body: { consent_text: 'Yes, and the weekly digest too.' } });
    expect((await post(form.formKey, personJson('grace@example.net'))).status).toBe(200);
    const ledger = await ledgerOf(organizationId, 'grace@example.net');
    expect(ledger.length).toBeGreaterThan(0);
    expect(new Set(ledger.map((entry) => entry.formVersion))).toEqual(new Set([2]));
    expect((await submissionsOf(form.id))[0]!.formVersion).toBe(2);
  });

  it('gives other origins no CORS headers and refuses their submissions', async () => {
    const { organizationId, form } = await setUp();
    const preflight = await fetch(`${app.url}/f/${form.formKey}`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    for (const origin of ['https://evil.example', 'null', 'http://www.shop.example']) {
      const response = await post(form.formKey, personJson('ada@example.net'), { origin });
      expect(response.status, origin).toBe(403);
      expect(response.body).toEqual({ error: expect.any(String), code: 'FORBIDDEN' });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect(await contactOf(organizationId, 'ada@example.net')).toBeUndefined();
    expect(await submissionsOf(form.id)).toEqual([]);
  });

  it('a form-encoded post is answered with a 303 to the success or error URL, or a hosted page', async () => {
    const { key, form } = await setUp();
    const page = await post(form.formKey, person('page@example.net'), { json: false });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('Thank you');
    const refusedPage = await post(form.formKey, person('not an address'), { json: false });
    expect(refusedPage.status).toBe(400);
    expect(refusedPage.headers.get('content-type')).toContain('text/html');

    await app.request('PATCH', `/api/forms/${form.id}`, { key, body: { success_url: 'https://www.shop.example/thanks', error_url: 'https://www.shop.example/oops?from=form' } });
    const redirected = await post(form.formKey, person('redirect@example.net'), { json: false });
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get('location')).toBe('https://www.shop.example/thanks');
    const failed = await post(form.formKey, person('not an address'), { json: false });
    expect(failed.status).toBe(303);
    expect(failed.headers.get('location')).toBe('https://www.shop.example/oops?from=form&error=VALIDATION_ERROR');
    expect((await submissionsOf(form.id)).map((row) => row.email).sort()).toEqual(['page@example.net', 'redirect@example.net']);
  });

  it('works from a real page in Chromium: the snippet posts and redirects, and a script on the page posts JSON', async () => {
    const pages = http.createServer((req, res) => {
      if (req.url === '/thanks') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<h1 id="done">Thanks from the shop</h1>');
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><body>${snippet}</body></html>`);
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    // localhost and 127.0.0.1 are two origins: one is allowed, the other is not.
    const port = (pages.address() as AddressInfo).port;
    const pageOrigin = `http://127.0.0.1:${port}`;
    const { organizationId, form } = await setUp({ allowed_origins: [pageOrigin], success_url: `${pageOrigin}/thanks` });
    const got = await app.request('GET', `/api/forms/${form.id}`, { key: await setUpKey(organizationId) });
    // The snippet as the dashboard shows it, pointed at this test's server.
    let snippet = (got.body.snippet as string).replace('http://127.0.0.1:3000', app.url);
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
    try {
      const page = await browser.newPage();
      await page.goto(`${pageOrigin}/`);
      await page.fill('input[name="email"]', 'browser@example.net');
      await page.fill('input[name="first_name"]', 'Bea');
      await page.fill('input[name="properties.seats"]', '3');
      // A person takes a moment; the snippet measures it.
      await page.waitForTimeout(2_200);
      await Promise.all([page.waitForURL(`${pageOrigin}/thanks`), page.click('button[type="submit"]')]);
      expect(await page.textContent('#done')).toBe('Thanks from the shop');
      const contact = await contactOf(organizationId, 'browser@example.net');
      expect(contact).toMatchObject({ firstName: 'Bea', properties: { seats: 3 } });
      const [submission] = await submissionsOf(form.id);
      expect(submission!.userAgent).toContain('Chrome');
      expect((await ledgerOf(organizationId, 'browser@example.net')).every((entry) => entry.via === 'form' && entry.formId === form.id)).toBe(true);

      snippet = '';
      const call = (origin: string) =>
        page.goto(`${origin}/`).then(() =>
          page.evaluate(async (endpoint) => {
            try {
              const response = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'script@example.net', _fill_ms: 3000 }) });
              return { status: response.status, body: await response.json() };
            } catch (error) {
              return { failed: String(error) };
            }
          }, `${app.url}/f/${form.formKey}`),
        );
      expect(await call(pageOrigin)).toEqual({ status: 200, body: { message: 'Thank you: your subscription is recorded' } });
      expect(await call(`http://localhost:${port}`)).toEqual({ failed: expect.stringContaining('Failed to fetch') });
      expect((await submissionsOf(form.id)).map((row) => row.email)).toEqual(['browser@example.net', 'script@example.net']);
    } finally {
      await browser.close();
      pages.close();
    }
  }, 60_000);
});

/** A key of the organization, for reading what the form did. */
async function setUpKey(organizationId: string): Promise<string> {
  const { keyFor } = await import('./support/keys');
  return keyFor(app, organizationId, 'full_access', 'live');
}

describe('spam protection', () => {
  it('answers a filled honeypot as a success and stores nothing', async () => {
    const { organizationId, form } = await setUp();
    const json = await post(form.formKey, personJson('bot@example.net', { website: 'http://spam.example' }));
    expect(json.status).toBe(200);
    expect(json.body).toEqual({ message: 'Thank you: your subscription is recorded' });
    const encoded = await post(form.formKey, person('bot@example.net', { website: 'http://spam.example' }), { json: false });
    expect(encoded.status).toBe(200);
    expect(encoded.text).toContain('Thank you');
    expect(await contactOf(organizationId, 'bot@example.net')).toBeUndefined();
    expect(await submissionsOf(form.id)).toEqual([]);
  });

  it('refuses a form sent faster than a person fills it, or without the fill time', async () => {
    const { organizationId, form } = await setUp();
    for (const fill of [{ _fill_ms: 300 }, { _fill_ms: 'soon' }, { _fill_ms: undefined }]) {
      const response = await post(form.formKey, personJson('quick@example.net', fill));
      expect(response.status, JSON.stringify(fill)).toBe(400);
      expect(response.body).toEqual({ error: expect.stringContaining('faster than a person'), code: 'VALIDATION_ERROR' });
    }
    expect(await contactOf(organizationId, 'quick@example.net')).toBeUndefined();
  });

  it('limits each client address, across forms', async () => {
    const { form } = await setUp();
    const client = freshClient();
    for (let index = 0; index < FORM_SUBMIT_LIMITS.perClient.requests; index += 1) {
      expect((await post(form.formKey, personJson(`c${index}@example.net`, { website: 'x' }), { client })).status).toBe(200);
    }
    const refused = await post(form.formKey, personJson('one-more@example.net'), { client });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not held back by this one.
    expect((await post(form.formKey, personJson('other-client@example.net'))).status).toBe(200);
    app.clock.advance(FORM_SUBMIT_LIMITS.perClient.windowMs);
    expect((await post(form.formKey, personJson('later@example.net'), { client })).status).toBe(200);
  });

  it('limits each submitted address, whatever the client and the form, so nobody can flood a victim', async () => {
    const first = await setUp();
    const second = await setUp();
    const victim = 'victim@example.net';
    for (let index = 0; index < FORM_SUBMIT_LIMITS.perEmail.requests; index += 1) {
      expect((await post((index % 2 ? second : first).form.formKey, personJson(victim))).status).toBe(200);
    }
    const refused = await post(second.form.formKey, personJson('Victim@Example.net'));
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect((await post(first.form.formKey, personJson('someone-else@example.net'))).status).toBe(200);
    app.clock.advance(FORM_SUBMIT_LIMITS.perEmail.windowMs);
    expect((await post(first.form.formKey, personJson(victim))).status).toBe(200);
  });

  it('limits each form, whatever the clients', async () => {
    const { form } = await setUp();
    const other = await setUp();
    for (let index = 0; index < FORM_SUBMIT_LIMITS.perForm.requests; index += 1) {
      const response = await post(form.formKey, personJson(`f${index}@example.net`, { website: 'x' }), { client: `198.51.${Math.floor(index / 200)}.${index % 200}` });
      expect(response.status).toBe(200);
    }
    const refused = await post(form.formKey, personJson('late@example.net'));
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect((await post(other.form.formKey, personJson('late@example.net'))).status).toBe(200);
  }, 60_000);

  it('refuses an address whose domain receives no mail, asking the service\'s own resolver', async () => {
    const { organizationId, form } = await setUp();
    app.dns.a('a-only.example.org', '192.0.2.10');
    const refused = await post(form.formKey, personJson('someone@no-mail-here.example.org'));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: expect.stringContaining('no-mail-here.example.org does not receive email'), code: 'VALIDATION_ERROR' });
    expect(app.dns.queries).toContain('MX no-mail-here.example.org');
    expect(await contactOf(organizationId, 'someone@no-mail-here.example.org')).toBeUndefined();
    // An address record is the implicit MX.
    expect((await post(form.formKey, personJson('someone@a-only.example.org'))).status).toBe(200);
  });
});

describe('hostile input', () => {
  it('refuses an unknown form key, other methods, oversized bodies, malformed encodings and other media types', async () => {
    const { organizationId, form } = await setUp();
    const unknown = await post('frm_doesnotexist0000000000', personJson('ada@example.net'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
    expect((await post('frm_%2e%2e%2fapi', personJson('ada@example.net'))).status).toBe(404);
    expect((await post(`${form.formKey}/more`, personJson('ada@example.net'))).status).toBe(404);
    const get = await fetch(`${app.url}/f/${form.formKey}`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');

    const big = await post(form.formKey, {}, { raw: JSON.stringify(personJson('big@example.net', { first_name: 'x'.repeat(FORM_BODY_LIMIT_BYTES) })) });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');

    const cases: Array<[PostOptions, number]> = [
      [{ json: false, raw: 'email=ada%E0%A4%A@example.net&_fill_ms=4000' }, 400],
      [{ json: false, raw: 'email=ada%ZZ@example.net&_fill_ms=4000' }, 400],
      [{ json: false, raw: new Uint8Array([...Buffer.from('email=ada'), 0xff, 0xfe, ...Buffer.from('@example.net&_fill_ms=4000')]) }, 400],
      [{ json: false, raw: 'email=ada%00@example.net&_fill_ms=4000' }, 400],
      [{ raw: '{"email": "ada@example.net", "_fill_ms": 4000' }, 400],
      [{ raw: '["ada@example.net"]' }, 400],
      [{ raw: '{"email":"ada\\u0000@example.net","_fill_ms":4000}' }, 400],
      [{ raw: '{"email":"ada\\ud800@example.net","_fill_ms":4000}' }, 400],
      [{ raw: `{"email":"ada@example.net","_fill_ms":4000,"first_name":${'['.repeat(100)}${']'.repeat(100)}}` }, 400],
      [{ raw: '{"email":["ada@example.net"],"_fill_ms":4000}' }, 400],
      [{ raw: '{"email":"Ada <ada@example.net>","_fill_ms":4000}' }, 400],
      [{ raw: '{"email":"ada@example.net","_fill_ms":4000,"first_name":{"a":1}}' }, 400],
      [{ raw: 'email=ada@example.net', contentType: 'text/plain' }, 415],
    ];
    for (const [options, status] of cases) {
      const response = await post(form.formKey, {}, options);
      expect(response.status, String(options.raw)).toBe(status);
      // A browser's form post gets a page, a script's JSON the error body.
      if (options.json === false || options.contentType) expect(response.headers.get('content-type')).toContain('text/html');
      else expect(response.body).toEqual({ error: expect.any(String), code: expect.any(String) });
    }
    expect(await ledgerOf(organizationId, 'ada@example.net')).toEqual([]);
    expect(await submissionsOf(form.id)).toEqual([]);
  });
});

describe('the submissions and the contact', () => {
  it('logs contact.created for the audience, lists submissions in pages, and refuses once the audience is gone', async () => {
    const { key, organizationId, audienceId, form } = await setUp();
    for (const email of ['one@example.net', 'two@example.net', 'three@example.net']) expect((await post(form.formKey, personJson(email))).status).toBe(200);
    const logged = await db().select().from(events).where(and(eq(events.organizationId, organizationId), eq(events.type, 'contact.created')));
    expect(logged.map((event) => event.data)).toContainEqual(expect.objectContaining({ email: 'two@example.net', audienceId, subscribed: true }));

    const first = await app.request('GET', `/api/forms/${form.id}/submissions?limit=2`, { key });
    expect(first.body.data.map((row: { email: string }) => row.email)).toEqual(['three@example.net', 'two@example.net']);
    const second = await app.request('GET', `/api/forms/${form.id}/submissions?limit=2&cursor=${first.body.nextCursor}`, { key });
    expect(second.body.data.map((row: { email: string }) => row.email)).toEqual(['one@example.net']);
    expect(second.body.nextCursor).toBeNull();

    expect((await app.request('DELETE', `/api/audiences/${audienceId}`, { key })).status).toBe(200);
    expect((await app.request('GET', `/api/forms/${form.id}`, { key })).body.audienceId).toBeNull();
    const refused = await post(form.formKey, personJson('four@example.net'));
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('at the plan\'s contact cap refuses every address alike, the ones it holds too', async () => {
    const { key, organizationId, audienceId, form } = await setUp();
    await app.request('POST', `/api/audiences/${audienceId}/contacts`, { key, body: { email: 'held@example.net' } });
    await db().update(organizations).set({ contactCount: 1_000_000 }).where(eq(organizations.id, organizationId));
    const known = await post(form.formKey, personJson('held@example.net'));
    const unknown = await post(form.formKey, personJson('fresh@example.net'));
    expect(known.status).toBe(503);
    // A 5xx body carries its request's id; apart from it the answers are the same.
    const withoutId = ({ request_id: _, ...body }: Record<string, unknown>) => body;
    expect([unknown.status, withoutId(unknown.body)]).toEqual([known.status, withoutId(known.body)]);
    expect(await contactOf(organizationId, 'fresh@example.net')).toBeUndefined();
  });
});

describe('erasure', () => {
  it("a data subject's erasure takes their submissions out of the forms' lists", async () => {
    const { key, form } = await setUp();
    expect((await post(form.formKey, personJson('erase-me@example.net'))).status).toBe(200);
    expect((await post(form.formKey, personJson('keep-me@example.net'))).status).toBe(200);
    const erased = await app.request('DELETE', `/api/recipients/${encodeURIComponent('erase-me@example.net')}/data`, { key });
    expect(erased.status, erased.text).toBe(200);
    expect((await submissionsOf(form.id)).map((row) => row.email)).toEqual(['keep-me@example.net']);
  });
});

describe("a data subject's export and the retention of submissions", () => {
  it("lists the address's submissions of every form of the organization, with the values, consent version and client, and no one else's", async () => {
    const { key, organizationId, audienceId, form } = await setUp();
    const second = await app.request('POST', '/api/forms', { key, body: { name: 'Footer', audience_id: audienceId, consent_text: 'Yes, the newsletter.', allowed_origins: [PAGE_ORIGIN] } });
    expect(second.status, second.text).toBe(201);
    expect((await post(form.formKey, personJson('ada@example.net'), { client: '198.51.100.7' })).status).toBe(200);
    expect((await app.request('PATCH', `/api/forms/${second.body.id}`, { key, body: { consent_text: 'Yes, the weekly newsletter.' } })).body.consentVersion).toBe(2);
    expect((await post(second.body.formKey, personJson('ada@example.net'), { client: '2001:db8::7' })).status).toBe(200);
    expect((await post(form.formKey, personJson('someone-else@example.net'))).status).toBe(200);
    // Another organization's form with the same address is not this organization's data.
    const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
    const theirAudience = (await app.request('POST', '/api/audiences', { key: other.apiKey, body: { name: 'Theirs' } })).body.id;
    const theirForm = (await app.request('POST', '/api/forms', { key: other.apiKey, body: { name: 'Theirs', audience_id: theirAudience, consent_text: 'Yes', allowed_origins: [PAGE_ORIGIN] } })).body;
    expect((await post(theirForm.formKey, personJson('ada@example.net'))).status).toBe(200);

    const data = await app.request('GET', `/api/recipients/${encodeURIComponent('Ada@Example.net')}/data`, { key });
    expect(data.status, data.text).toBe(200);
    const stored = await db().select().from(formSubmissions).where(and(eq(formSubmissions.organizationId, organizationId), eq(formSubmissions.email, 'ada@example.net'))).orderBy(asc(formSubmissions.id));
    expect(data.body.formSubmissions).toEqual([
      {
        id: stored[0]!.id,
        formId: form.id,
        formName: 'Newsletter',
        status: 'subscribed',
        consentVersion: 1,
        values: { firstName: 'Ada', lastName: 'Lovelace', properties: { seats: 12 } },
        clientAddress: '198.51.100.7',
        userAgent: UA,
        createdAt: stored[0]!.createdAt.toISOString(),
      },
      {
        id: stored[1]!.id,
        formId: second.body.id,
        formName: 'Footer',
        status: 'subscribed',
        consentVersion: 2,
        values: { firstName: null, lastName: null, properties: {} },
        clientAddress: '2001:db8::7',
        userAgent: UA,
        createdAt: stored[1]!.createdAt.toISOString(),
      },
    ]);
  });

  it("deletes submissions past the plan's log retention under the test clock; the ledger's entries stay", async () => {
    const { key, organizationId, form } = await setUp();
    expect((await post(form.formKey, personJson('early@example.net'))).status).toBe(200);
    app.clock.advance(20 * DAY_MS);
    expect((await post(form.formKey, personJson('later@example.net'))).status).toBe(200);
    const emails = async () => (await submissionsOf(form.id)).map((row) => row.email);
    const ledgerBefore = await ledgerOf(organizationId, 'early@example.net');
    expect(ledgerBefore.length).toBeGreaterThan(0);

    // 30 days on (this plan's log retention), the first goes and the second, 10 days old, stays.
    app.clock.advance(10 * DAY_MS - 60_000);
    expect((await applyRetention(app.runtime.deps)).formSubmissionsDeleted).toBe(0);
    app.clock.advance(2 * 60_000);
    expect((await applyRetention(app.runtime.deps)).formSubmissionsDeleted).toBe(1);
    expect(await emails()).toEqual(['later@example.net']);
    expect(await ledgerOf(organizationId, 'early@example.net')).toEqual(ledgerBefore);
    expect((await contactOf(organizationId, 'early@example.net'))?.unsubscribed).toBe(false);
    const exported = await app.request('GET', `/api/recipients/${encodeURIComponent('early@example.net')}/data`, { key });
    expect(exported.status).toBe(200);
    expect(exported.body.formSubmissions).toEqual([]);
    expect(exported.body.consent.length).toBe(ledgerBefore.length);

    // A plan with a longer log retention keeps them longer: the sweep reads the organization's plan.
    await db().update(organizations).set({ plan: '250k' }).where(eq(organizations.id, organizationId));
    app.clock.advance(60 * DAY_MS);
    expect((await applyRetention(app.runtime.deps)).formSubmissionsDeleted).toBe(0);
    expect(await emails()).toEqual(['later@example.net']);
    // 90 days after it was made.
    app.clock.advance(20 * DAY_MS);
    expect((await applyRetention(app.runtime.deps)).formSubmissionsDeleted).toBe(1);
    expect(await emails()).toEqual([]);
  });
});

describe('answers never reveal an address', () => {
  it('answers a new, a subscribed, an unsubscribed, a left-the-list and a suppressed address alike, and resubscribes none of the opted-out', async () => {
    const { key, organizationId, audienceId, form } = await setUp();
    const subscribed = await app.request('POST', `/api/audiences/${audienceId}/contacts`, { key, body: { email: 'member@example.net', first_name: 'Mem' } });
    const unsubscribed = await app.request('POST', '/api/contacts', { key, body: { email: 'gone@example.net', unsubscribed: true } });
    const left = await app.request('POST', `/api/audiences/${audienceId}/contacts`, { key, body: { email: 'left@example.net', subscribed: false } });
    const suppressed = await app.request('POST', '/api/suppressions', { key, body: { email: 'blocked@example.net' } });
    expect([subscribed.status, unsubscribed.status, left.status, suppressed.status]).toEqual([201, 201, 201, 200]);
    const before = await ledgerOf(organizationId, 'gone@example.net');

    const addresses = ['new@example.net', 'member@example.net', 'gone@example.net', 'left@example.net', 'blocked@example.net'];
    const answers = [];
    for (const email of addresses) {
      const json = await post(form.formKey, personJson(email));
      const encoded = await post(form.formKey, person(email), { json: false });
      answers.push({ json: [json.status, json.text], encoded: [encoded.status, encoded.text] });
    }
    for (const answer of answers) expect(answer).toEqual(answers[0]);

    expect((await contactOf(organizationId, 'gone@example.net'))!.unsubscribed).toBe(true);
    expect(await ledgerOf(organizationId, 'gone@example.net')).toEqual(before);
    const leftContact = await contactOf(organizationId, 'left@example.net');
    const [leftMembership] = await db().select().from(audienceMemberships).where(eq(audienceMemberships.contactId, leftContact!.id));
    expect(leftMembership!.subscribed).toBe(false);
    expect(await contactOf(organizationId, 'blocked@example.net')).toBeUndefined();
    // A form never overwrites what a contact has: anyone can type anyone's address.
    expect((await contactOf(organizationId, 'member@example.net'))).toMatchObject({ firstName: 'Mem', lastName: 'Lovelace' });

    const statuses = Object.fromEntries((await submissionsOf(form.id)).map((row) => [row.email, row.status]));
    expect(statuses).toEqual({
      'new@example.net': 'subscribed',
      'member@example.net': 'subscribed',
      'gone@example.net': 'kept_opt_out',
      'left@example.net': 'kept_opt_out',
      'blocked@example.net': 'kept_opt_out',
    });
  });

  it('a double opt-in form leaves a contact the organization holds as it stands: a subscriber joins, an opt-out is kept, nobody is made pending or mailed', async () => {
    const org = await setUp();
    const domain = await app.request('POST', '/api/domains', { key: org.key, body: { name: 'shop-news.com' } });
    await db().update(domains).set({ status: 'verified', verifiedAt: app.clock.now() }).where(eq(domains.id, domain.body.id));
    expect((await app.request('PATCH', `/api/forms/${org.form.id}`, { key: org.key, body: { double_opt_in: true, domain_id: domain.body.id } })).status).toBe(200);
    expect((await app.request('POST', '/api/contacts', { key: org.key, body: { email: 'subscriber@example.net' } })).status).toBe(201);
    expect((await app.request('POST', '/api/contacts', { key: org.key, body: { email: 'left@example.net', unsubscribed: true } })).status).toBe(201);
    for (const address of ['subscriber@example.net', 'left@example.net']) expect((await post(org.form.formKey, personJson(address))).status).toBe(200);
    // Anyone can type an address: the subscriber is not taken off its lists until it confirms, the opt-out not lifted or deleted later.
    expect(await contactOf(org.organizationId, 'subscriber@example.net')).toMatchObject({ unsubscribed: false, pendingSince: null });
    expect(await contactOf(org.organizationId, 'left@example.net')).toMatchObject({ unsubscribed: true, pendingSince: null });
    const subscriber = await contactOf(org.organizationId, 'subscriber@example.net');
    expect(await db().select().from(audienceMemberships).where(eq(audienceMemberships.contactId, subscriber!.id))).toMatchObject([{ audienceId: org.audienceId, subscribed: true }]);
    expect((await submissionsOf(org.form.id)).map((row) => [row.email, row.status])).toEqual([
      ['subscriber@example.net', 'subscribed'],
      ['left@example.net', 'kept_opt_out'],
    ]);
    expect(await db().select().from(emails).where(eq(emails.organizationId, org.organizationId))).toEqual([]);
  });

  it('a double opt-in form mails the confirmation from its domain; nobody is subscribed until the link is pressed, then the form’s audience is joined', async () => {
    const org = await setUp();
    const domain = await app.request('POST', '/api/domains', { key: org.key, body: { name: 'shop-news.com' } });
    await db().update(domains).set({ status: 'verified', verifiedAt: app.clock.now() }).where(eq(domains.id, domain.body.id));
    const turnedOn = await app.request('PATCH', `/api/forms/${org.form.id}`, { key: org.key, body: { double_opt_in: true, domain_id: domain.body.id } });
    expect(turnedOn.status, turnedOn.text).toBe(200);
    const response = await post(org.form.formKey, personJson('careful@example.net'), { client: '198.51.100.7' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Thank you: check your inbox to confirm your subscription' });
    // Pending: a contact, not subscribed, in no audience yet; the ledger says `pending`, through the form.
    const pending = await contactOf(org.organizationId, 'careful@example.net');
    expect(pending).toMatchObject({ unsubscribed: true, firstName: 'Ada', lastName: 'Lovelace', pendingSince: expect.any(Date) });
    expect(await db().select().from(audienceMemberships).where(eq(audienceMemberships.contactId, pending!.id))).toEqual([]);
    expect((await ledgerOf(org.organizationId, 'careful@example.net')).map((entry) => [entry.action, entry.via, entry.formId, entry.formVersion, entry.clientAddress])).toEqual([
      ['pending', 'form', org.form.id, 1, '198.51.100.7'],
    ]);
    const [submission] = await submissionsOf(org.form.id);
    expect(submission).toMatchObject({ status: 'awaiting_confirmation', contactId: pending!.id, formVersion: 1, values: { firstName: 'Ada', lastName: 'Lovelace', properties: { seats: 12 } } });
    // The confirmation, stored through the admit door from the form's domain, with its signed link.
    const [mail] = await db().select().from(emails).where(eq(emails.organizationId, org.organizationId));
    expect(mail).toMatchObject({ to: ['careful@example.net'], fromAddress: 'confirm@shop-news.com' });
    const link = /\/confirm-subscription\/[A-Za-z0-9_-]{43}/.exec(`${mail!.html ?? ''} ${mail!.text ?? ''}`)?.[0];
    expect(link).toBeDefined();
    // Submitted again at once: answered the same, no second mail (the re-send throttle).
    expect((await post(org.form.formKey, personJson('careful@example.net'), { client: '198.51.100.8' })).status).toBe(200);
    expect(await db().select().from(emails).where(eq(emails.organizationId, org.organizationId))).toHaveLength(1);
    // The button confirms: subscribed, in the form's audience, the ledger naming the form and its consent text.
    const pressed = await fetch(`${app.url}${link}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Careful/1.0' }, body: 'confirm=1' });
    expect(pressed.status).toBe(200);
    expect(await contactOf(org.organizationId, 'careful@example.net')).toMatchObject({ unsubscribed: false, pendingSince: null });
    const [membership] = await db().select().from(audienceMemberships).where(eq(audienceMemberships.contactId, pending!.id));
    expect(membership).toMatchObject({ audienceId: org.audienceId, subscribed: true });
    const entries = (await ledgerOf(org.organizationId, 'careful@example.net')).slice(1).map((entry) => [entry.action, entry.via, entry.formId, entry.formVersion, entry.userAgent]);
    expect(entries).toEqual([
      ['confirmed', 'confirmation', org.form.id, 1, 'Careful/1.0'],
      ['subscribed', 'confirmation', org.form.id, 1, 'Careful/1.0'],
      ['topic_in', 'confirmation', org.form.id, 1, 'Careful/1.0'],
    ]);
  });

  it("a double opt-in form mails the organization's template, and so does a re-send; a template edited since to drop the link gives way to the built-in text", async () => {
    const org = await setUp();
    const domain = await app.request('POST', '/api/domains', { key: org.key, body: { name: 'shop-news.com' } });
    await db().update(domains).set({ status: 'verified', verifiedAt: app.clock.now() }).where(eq(domains.id, domain.body.id));
    const template = await app.request('POST', '/api/templates', {
      key: org.key,
      body: { name: 'Confirm', subject: 'One click left, {{ name | default: "friend" }}', html: '<p>Hello {{ email }}: <a href="{{ confirmation_url }}">yes, sign me up</a> ({{ expires_in_days }} days)</p>' },
    });
    expect(template.status, template.text).toBe(201);
    const turnedOn = await app.request('PATCH', `/api/forms/${org.form.id}`, { key: org.key, body: { double_opt_in: true, domain_id: domain.body.id, confirmation_template_id: template.body.id } });
    expect(turnedOn.status, turnedOn.text).toBe(200);
    const mailsTo = async (to: string) => (await db().select().from(emails).where(eq(emails.organizationId, org.organizationId)).orderBy(asc(emails.id))).filter((mail) => mail.to.includes(to));
    const linkOf = (mail: { html: string | null; text: string | null }) => /\/confirm-subscription\/[A-Za-z0-9_-]{43}/.exec(`${mail.html ?? ''} ${mail.text ?? ''}`)?.[0];

    expect((await post(org.form.formKey, personJson('templated@example.net'))).status).toBe(200);
    const [first] = await mailsTo('templated@example.net');
    expect(first).toMatchObject({ fromAddress: 'confirm@shop-news.com', subject: 'One click left, Ada Lovelace' });
    expect(first!.html).toContain('Hello templated@example.net: <a href="http://127.0.0.1:3000/confirm-subscription/');
    expect(first!.html).toContain('(7 days)');
    expect(linkOf(first!)).toBeDefined();

    // The organization's re-send of that confirmation is written with the same template.
    app.clock.advance(11 * 60_000);
    const resent = await app.request('POST', `/api/contacts/${encodeURIComponent('templated@example.net')}/confirmation`, { key: org.key, body: {} });
    expect(resent.status, resent.text).toBe(200);
    expect((await mailsTo('templated@example.net')).map((mail) => mail.subject)).toEqual(['One click left, Ada Lovelace', 'One click left, Ada Lovelace']);

    // Edited to drop the link, the template could confirm nobody: people get the built-in text, with a working link, not an error.
    const edited = await app.request('PATCH', `/api/templates/${template.body.id}`, { key: org.key, body: { html: '<p>Thanks for signing up!</p>' } });
    expect(edited.status, edited.text).toBe(200);
    expect((await post(org.form.formKey, personJson('later@example.net'))).status).toBe(200);
    const [builtIn] = await mailsTo('later@example.net');
    expect(builtIn!.subject).toMatch(/^Confirm your subscription to /);
    expect(linkOf(builtIn!)).toBeDefined();
    app.clock.advance(11 * 60_000);
    expect((await app.request('POST', `/api/contacts/${encodeURIComponent('templated@example.net')}/confirmation`, { key: org.key, body: {} })).status).toBe(200);
    expect((await mailsTo('templated@example.net')).at(-1)!.subject).toMatch(/^Confirm your subscription to /);
    // The link of the built-in mail confirms into the form's audience as any other.
    const pressed = await fetch(`${app.url}${linkOf(builtIn!)}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'confirm=1' });
    expect(pressed.status).toBe(200);
    const later = await contactOf(org.organizationId, 'later@example.net');
    expect(await db().select().from(audienceMemberships).where(eq(audienceMemberships.contactId, later!.id))).toMatchObject([{ audienceId: org.audienceId, subscribed: true }]);
  });
});
