import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { eq } from 'drizzle-orm';
import { emailEvents, emailRecipients, emails } from '@/db/schema';
import type { AppRouter } from '@/server/routers/types';
import { sweepBroadcasts } from '@/server/services/broadcasts/fan-out';
import { RENDER_POOL } from '@/server/services/templates/render-pool';
import { TEMPLATE_LIMITS } from '@/server/services/templates/limits';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';
import { reviewedSendingOrg } from './support/sending-org';

/**
 * Issue 28, point 2: one template must not stall the process. Every render runs in the render
 * pool's worker threads, bounded by what it produces as it grows and by a hard stop in time; past
 * a bound the answer is a 400 naming the part, while /api/health keeps answering at once and the
 * API process's memory stays where it was.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { APP_URL: 'https://mail.eumail.test' } });
});
afterAll(() => app.close());

let org: { organizationId: string; apiKey: string };
let warm = false;
beforeEach(async () => {
  await app.reset();
  org = await reviewedSendingOrg(app);
  if (!warm) {
    // A server that has answered before: the health route and the pool's first thread started
    // (the threads start with the first render), so what is timed is the hostile render alone.
    warm = true;
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
    expect((await preview(await saveTemplate('<p>{{ name }}</p>'), { name: 'warm' })).status).toBe(200);
  }
});

/** The attacker's template: a capture that doubles a string 23 times, then inflated by url_encode. */
const DOUBLING = `{% assign a = "0123456789abcdef" %}${'{% capture a %}{{a}}{{a}}{% endcapture %}'.repeat(23)}{{ a | url_encode }}`;
/** Small enough for every size bound, yet one node (sorting 1.6 M characters) runs for seconds: only the hard stop ends it. */
// Seconds in one output node, in under 64 MiB: 409,600 characters split and sorted 30 times
// (one sort of a string four times as long would also run out of the worker's heap first).
const SLOW = `{% capture a %}${'abcdefghij'.repeat(10)}{% endcapture %}${'{% capture a %}{{a}}{{a}}{% endcapture %}'.repeat(12)}{{ a | split: ""${' | reverse | sort'.repeat(30)} | join: "" | size }}`;

const FROM = 'Acme <hello@acme.example.com>';
const HEALTH_MS = 500;
/** What the API's own heap may grow by while a hostile render runs (the render itself is in a worker). */
const HEAP_GROWTH_MB = 64;
/** The whole process, workers included: each worker's heap is bounded; the rest is slack for buffers. */
const RSS_GROWTH_MB = RENDER_POOL.threads * (RENDER_POOL.maxOldGenerationSizeMb + RENDER_POOL.maxYoungGenerationSizeMb) + 128;

interface Watched<T> {
  result: T;
  healthChecks: number;
  slowestHealthMs: number;
  heapGrowthMb: number;
  rssGrowthMb: number;
}

/**
 * Runs `work` while asking GET /api/health over and over, each answer timed, and sampling the
 * process's memory: what a customer's other requests would see while the hostile render is in flight.
 */
async function whileWatching<T>(work: () => Promise<T>): Promise<Watched<T>> {
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  let peakRss = before.rss;
  let settled = false;
  const timings: number[] = [];
  const watcher = (async () => {
    while (!settled) {
      const started = performance.now();
      const health = await fetch(`${app.url}/api/health`);
      await health.arrayBuffer();
      timings.push(performance.now() - started);
      expect(health.status).toBe(200);
      const now = process.memoryUsage();
      peakHeap = Math.max(peakHeap, now.heapUsed);
      peakRss = Math.max(peakRss, now.rss);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    const result = await work();
    return { result, healthChecks: timings.length, slowestHealthMs: Math.max(...timings), heapGrowthMb: (peakHeap - before.heapUsed) / 2 ** 20, rssGrowthMb: (peakRss - before.rss) / 2 ** 20 };
  } finally {
    settled = true;
    await watcher;
  }
}

function expectUnstalled(watched: Watched<unknown>) {
  // At least one health check answered while the render was in flight, and none waited for it.
  expect(watched.healthChecks).toBeGreaterThan(0);
  expect(watched.slowestHealthMs).toBeLessThan(HEALTH_MS);
  expect(watched.heapGrowthMb).toBeLessThan(HEAP_GROWTH_MB);
  expect(watched.rssGrowthMb).toBeLessThan(RSS_GROWTH_MB);
}

async function saveTemplate(html: string, subject = 'Hello'): Promise<string> {
  const saved = await app.request('POST', '/api/templates', { key: org.apiKey, body: { name: 'Hostile', subject, html } });
  // Accepted at save: it parses, and nothing renders at save time.
  expect(saved.status, saved.text).toBe(201);
  return saved.body.id;
}

const preview = (id: string, variables?: Record<string, unknown>) =>
  app.request('GET', `/api/templates/${id}/preview${variables ? `?variables=${encodeURIComponent(JSON.stringify(variables))}` : ''}`, { key: org.apiKey });

describe('a template that grows without end', () => {
  it('is refused on preview with a 400 naming the part, while /api/health answers promptly and memory stays put', async () => {
    const id = await saveTemplate(DOUBLING);
    const watched = await whileWatching(() => preview(id));
    expect(watched.result.status, watched.result.text).toBe(400);
    expect(watched.result.body).toEqual({ code: 'VALIDATION_ERROR', error: expect.stringMatching(/^html: .*(memory alloc limit exceeded|renders too large)/) });
    expectUnstalled(watched);
  });

  it('is refused on POST /emails with template_id, and on each of 100 batch items, nothing stored', async () => {
    const id = await saveTemplate(DOUBLING);
    const single = await whileWatching(() => app.request('POST', '/api/emails', { key: org.apiKey, body: { from: FROM, to: 'ada@example.net', template_id: id } }));
    expect(single.result.status, single.result.text).toBe(400);
    expect(single.result.body).toEqual({ code: 'VALIDATION_ERROR', error: expect.stringMatching(/^html: /) });
    expectUnstalled(single);

    const items = Array.from({ length: 100 }, (_, i) => ({ from: FROM, to: `ada${i}@example.net`, template_id: id, variables: { n: i } }));
    const batch = await whileWatching(() => app.request('POST', '/api/emails/batch', { key: org.apiKey, body: items }));
    expect(batch.result.status, batch.result.text).toBe(200);
    expect(batch.result.body.data).toHaveLength(100);
    for (const outcome of batch.result.body.data) expect(outcome).toEqual({ code: 'VALIDATION_ERROR', error: expect.stringMatching(/^html: /) });
    expectUnstalled(batch);
    expect(await app.runtime.deps.db.select({ id: emails.id }).from(emails)).toEqual([]);
  });

  it('bounds each way a string can grow: capture, assign with append, url_encode and escape inflation, repeated outputs, the subject', async () => {
    const big = 'x'.repeat(1_000_000);
    const cases: Array<{ html?: string; subject?: string; variables?: Record<string, unknown>; refusal: RegExp }> = [
      { html: `{% capture a %}${'x'.repeat(100)}{% endcapture %}${'{% capture a %}{{a}}{{a}}{% endcapture %}'.repeat(30)}ok`, refusal: /^html: .*(renders too large|memory alloc limit exceeded)/ },
      { html: `{% assign a = "${'x'.repeat(100)}" %}${'{% assign a = a | append: a %}'.repeat(30)}ok`, refusal: /^html: .*(renders too large|memory alloc limit exceeded)/ },
      // 1.6 M "é" become 9.6 M characters URL-encoded, then 16 M encoded again: past the budget, though nothing is printed.
      { html: `{% capture a %}{{ big }}{{ big }}{{ big }}{{ big }}{% endcapture %}{{ a | url_encode | url_encode | size }}`, variables: { big: 'é'.repeat(400_000) }, refusal: /^html: renders too large/ },
      // Each escape adds four characters per "&": past the budget by the fourth, though LiquidJS's escape may take longer than the hard stop to get there.
      { html: '{{ big | escape | escape | escape | escape | size }}', variables: { big: '&'.repeat(1_000_000) }, refusal: /^html: renders too (large|slowly)/ },
      { html: '{{ big }}'.repeat(6), variables: { big }, refusal: new RegExp(`^html: renders to more than ${TEMPLATE_LIMITS.bodyBytes} characters`) },
      { subject: '{{ big }}', html: 'ok', variables: { big: 'y'.repeat(2_000) }, refusal: new RegExp(`^subject: renders longer than ${TEMPLATE_LIMITS.subjectChars} characters`) },
    ];
    // Sent, as the variables are too large for a preview's query string.
    const send = (id: string, variables?: Record<string, unknown>) => app.request('POST', '/api/emails', { key: org.apiKey, body: { from: FROM, to: 'ada@example.net', template_id: id, variables } });
    for (const { html, subject, variables, refusal } of cases) {
      const answer = await send(await saveTemplate(html ?? 'ok', subject), variables);
      expect(answer.status, `${html}: ${answer.text}`).toBe(400);
      expect(answer.body).toEqual({ code: 'VALIDATION_ERROR', error: expect.stringMatching(refusal) });
    }
    expect(await app.runtime.deps.db.select({ id: emails.id }).from(emails)).toEqual([]);
    // What a real customer sends stays well inside: a 1 MB variable printed twice, raw, in a large template.
    const fine = await send(await saveTemplate(`<h1>{{ name }}</h1>{{ big | raw }}{{ big | raw }}${'<p>paragraph</p>'.repeat(10_000)}`), { name: 'Ada', big });
    expect(fine.status, fine.text.slice(0, 200)).toBe(200);
    const [stored] = await app.runtime.deps.db.select({ html: emails.html }).from(emails).where(eq(emails.id, fine.body.id));
    expect(stored!.html).toHaveLength('<h1>Ada</h1>'.length + 2 * big.length + '<p>paragraph</p>'.length * 10_000);
  });
});

describe('a template that runs for seconds in one node', () => {
  it('is stopped by the hard time stop with a 400 naming the part; the API answers meanwhile; the next render works', async () => {
    const id = await saveTemplate(SLOW);
    const watched = await whileWatching(() => preview(id));
    expect(watched.result.status, watched.result.text).toBe(400);
    expect(watched.result.body).toEqual({ code: 'VALIDATION_ERROR', error: `html: renders too slowly: stopped after ${RENDER_POOL.renderMs} ms` });
    expectUnstalled(watched);
    // The killed worker is replaced: the next render is answered.
    const fine = await preview(await saveTemplate('<p>{{ name }}</p>'), { name: 'Ada' });
    expect(fine.status, fine.text).toBe(200);
    expect(fine.body.html).toBe('<p>Ada</p>');
  });
});

describe('broadcasts', () => {
  const client = (apiKey: string) =>
    createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.url}/api/trpc`, headers: { authorization: `Bearer ${apiKey}` }, methodOverride: 'POST' })] });
  const envelopeOf = (error: unknown) => (error instanceof TRPCClientError ? (error.data as { envelope?: { code: string; error: string } })?.envelope : undefined);

  async function audienceOf(contacts: Array<{ email: string; name: string }>): Promise<string> {
    const id = (await app.request('POST', '/api/audiences', { key: org.apiKey, body: { name: 'Newsletter' } })).body.id as string;
    const added = await app.request('POST', `/api/audiences/${id}/contacts/batch`, { key: org.apiKey, body: { contacts } });
    expect(added.status, added.text).toBeLessThan(300);
    return id;
  }

  it('broadcasts.preview over tRPC with a test key, and a test send, answer 400 naming the part', async () => {
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const watched = await whileWatching(() => client(testKey).broadcasts.preview.query({ subject: 'News', html: DOUBLING }).then(() => null, (error: unknown) => error));
    expect(envelopeOf(watched.result)).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringMatching(/^html: /) });
    expectUnstalled(watched);

    const audienceId = await audienceOf([{ email: 'ada@example.net', name: 'Ada' }]);
    app.dns.mx('acme.example.com', 'mx.example.net');
    const created = await app.request('POST', '/api/broadcasts', { key: org.apiKey, body: { audience_id: audienceId, from: FROM, subject: 'News', html: DOUBLING } });
    expect(created.status, created.text).toBe(201);
    const saved = await client(testKey).broadcasts.preview.query({ id: created.body.id }).then(() => null, (error: unknown) => error);
    expect(envelopeOf(saved)).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringMatching(/^html: /) });
    const test = await whileWatching(() => app.request('POST', `/api/broadcasts/${created.body.id}/test`, { key: org.apiKey, body: { to: ['qa@acme.example.com'] } }));
    expect(test.result.status, test.result.text).toBe(400);
    expect(test.result.body).toEqual({ code: 'VALIDATION_ERROR', error: expect.stringMatching(/^html: /) });
    expectUnstalled(test);
    expect(await app.runtime.deps.db.select({ id: emails.id }).from(emails)).toEqual([]);
  });

  it('a fan-out whose render fails for some contacts records a failed email for each of them and sends the rest', async () => {
    // The name is doubled 16 times: 65,536 copies of a short name are fine, of a 200-character one far too many.
    const html = `<p>{% capture a %}{{ name }}{% endcapture %}${'{% capture a %}{{a}}{{a}}{% endcapture %}'.repeat(16)}{{ a | size }}</p><a href="{{ unsubscribe_url }}">Unsubscribe</a>`;
    const contacts = Array.from({ length: 10 }, (_, i) => ({ email: `c${i}@example.net`, name: i % 3 === 0 ? `Long ${'n'.repeat(195)}` : `Ada ${i}` }));
    const audienceId = await audienceOf(contacts);
    const created = await app.request('POST', '/api/broadcasts', { key: org.apiKey, body: { audience_id: audienceId, from: FROM, subject: 'News for {{ name | truncate: 20 }}', html } });
    expect(created.status, created.text).toBe(201);
    const sent = await app.request('POST', `/api/broadcasts/${created.body.id}/send`, { key: org.apiKey });
    expect(sent.status, sent.text).toBe(200);

    const watched = await whileWatching(async () => {
      for (let i = 0; i < 20; i += 1) if (!(await sweepBroadcasts(app.runtime.deps)).outcomes.more) return;
    });
    expectUnstalled(watched);

    const broadcast = (await app.request('GET', `/api/broadcasts/${created.body.id}`, { key: org.apiKey })).body;
    const failing = contacts.filter((contact) => contact.name.startsWith('Long'));
    expect(broadcast).toMatchObject({ status: 'sent', counts: { recipients: 10, queued: 10 - failing.length, skipped: failing.length } });
    const rows = await app.runtime.deps.db
      .select({ id: emails.id, to: emails.to, status: emails.status, html: emails.html })
      .from(emails)
      .where(eq(emails.broadcastId, created.body.id));
    expect(rows).toHaveLength(10);
    for (const contact of contacts) {
      const row = rows.find((r) => r.to[0] === contact.email)!;
      if (!contact.name.startsWith('Long')) {
        expect(row).toMatchObject({ status: 'queued' });
        expect(row.html).toContain(`<p>${contact.name.length * 2 ** 16}</p>`);
        continue;
      }
      expect(row).toMatchObject({ status: 'failed', html: null });
      const recipients = await app.runtime.deps.db
        .select({ address: emailRecipients.address, status: emailRecipients.status, attempts: emailRecipients.attempts, response: emailRecipients.response })
        .from(emailRecipients)
        .where(eq(emailRecipients.emailId, row.id));
      expect(recipients).toEqual([{ address: contact.email, status: 'failed', attempts: 0, response: expect.stringMatching(/could not be rendered for this contact: html: /) }]);
      const history = await app.runtime.deps.db.select({ type: emailEvents.type, recipient: emailEvents.recipient, data: emailEvents.data }).from(emailEvents).where(eq(emailEvents.emailId, row.id));
      expect(history).toEqual([{ type: 'email.failed', recipient: contact.email, data: { reason: expect.stringMatching(/could not be rendered for this contact: html: /) } }]);
    }
  });
});
