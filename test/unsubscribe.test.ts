import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { audienceMemberships, broadcasts, contacts, emailEvents, emails, events, suppressions, webhookDeliveries, webhooks } from '@/db/schema';
import { UNSUBSCRIBE_BODY_LIMIT_BYTES } from '@/server/http/unsubscribe';
import { confirmPage, donePage } from '@/server/http/unsubscribe-page';
import { newId } from '@/server/ids';
import { startBounceServer, type BounceServer } from '@/server/mail/bounce-server';
import { mailtoToken, sealUnsubscribeToken, unsubscribeKeyFrom, unsubscribeLinks } from '@/server/services/unsubscribe/tokens';
import { unsubscribe } from '@/server/services/unsubscribe/unsubscribe';
import type { UnsubscribeState } from '@/server/services/unsubscribe/vocabulary';
import { captureLog } from './support/log-capture';
import { startTestApp, type TestApp } from './support/app';
import { seedAudienceMember, seedBroadcastCopy } from './support/broadcast-copy';

// A broadcast's message as the fan-out will leave it (it is not merged yet): an audience, one
// contact, the broadcast and the contact's email row, written straight into the database.

const ADDRESS = 'ada@example.net';
const CONSENT_EVENT = 'contact.consent_changed';
const BOUNCE_DOMAIN = 'bounces.eumail.test';

let app: TestApp;
let bounceServer: BounceServer;
const captured = captureLog();

interface Seeded {
  organizationId: string;
  audienceId: string;
  contactId: string;
  membershipId: string;
  broadcastId: string;
  emailId: string;
  token: string;
}

async function seed(names: { organization?: string; audience?: string } = {}): Promise<Seeded> {
  const member = await seedAudienceMember(app, { address: ADDRESS, ...names });
  const copy = await seedBroadcastCopy(app, { ...member, address: ADDRESS });
  // An endpoint for every event: each event below must queue its delivery.
  await app.runtime.deps.db
    .insert(webhooks)
    .values({ id: newId(), organizationId: member.organizationId, url: 'https://hooks.example.org/in', events: ['*'], secretSealed: 'sealed', createdAt: app.clock.now(), updatedAt: app.clock.now() });
  return { ...member, ...copy };
}

const pathOf = (token: string) => `/unsubscribe/${token}`;

const oneClick = (token: string, init: { body?: string; contentType?: string } = {}) =>
  fetch(`${app.url}${pathOf(token)}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': init.contentType ?? 'application/x-www-form-urlencoded' },
    body: init.body ?? 'List-Unsubscribe=One-Click',
  });

const formPost = (token: string, body: string) =>
  fetch(`${app.url}${pathOf(token)}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });

const getPage = (token: string, method = 'GET') => fetch(`${app.url}${pathOf(token)}`, { method, redirect: 'manual' });

/** Everything an unsubscribe may write, to compare before and after. */
async function snapshot(s: Seeded) {
  const db = app.runtime.deps.db;
  const [contact] = await db.select().from(audienceMemberships).where(eq(audienceMemberships.id, s.membershipId));
  const [broadcast] = await db.select({ unsubscribed: broadcasts.unsubscribed }).from(broadcasts).where(eq(broadcasts.id, s.broadcastId));
  return {
    contact: contact ? { subscribed: contact.subscribed, updatedAt: contact.updatedAt.toISOString() } : null,
    unsubscribedCount: broadcast!.unsubscribed,
    // By type: a contact's event and an email's are written by different statements in one transaction.
    // The consent ledger's own events (contact.consent_changed) are test/consent-ledger.test.ts's.
    events: (await db.select().from(events).where(eq(events.organizationId, s.organizationId)))
      .filter((e) => e.type !== CONSENT_EVENT)
      .map((e) => ({ type: e.type, data: e.data }))
      .sort((a, b) => a.type.localeCompare(b.type)),
    history: (await db.select().from(emailEvents).where(eq(emailEvents.emailId, s.emailId)).orderBy(emailEvents.id)).map((e) => ({ type: e.type, recipient: e.recipient, data: e.data })),
    deliveries: (await db.select({ eventType: webhookDeliveries.eventType }).from(webhookDeliveries).where(eq(webhookDeliveries.organizationId, s.organizationId)))
      .map((d) => d.eventType)
      .filter((type) => type !== CONSENT_EVENT)
      .sort(),
    suppressions: (await db.select().from(suppressions).where(eq(suppressions.organizationId, s.organizationId))).map((r) => ({ email: r.email, reason: r.reason, emailId: r.emailId })),
  };
}

/** The state right after one unsubscribe through `via`. */
const unsubscribedOnce = (s: Seeded, via: string, at: Date) => ({
  contact: { subscribed: false, updatedAt: at.toISOString() },
  unsubscribedCount: 1,
  events: [
    { type: 'contact.updated', data: { contactId: s.contactId, audienceId: s.audienceId, email: ADDRESS, name: 'Ada', subscribed: false } },
    {
      type: 'email.unsubscribed',
      data: expect.objectContaining({ emailId: s.emailId, recipient: ADDRESS, via, contactId: s.contactId, broadcastId: s.broadcastId, subject: 'November news', mode: 'live' }),
    },
  ],
  history: [{ type: 'email.unsubscribed', recipient: ADDRESS, data: { via, contactId: s.contactId, broadcastId: s.broadcastId } }],
  deliveries: ['contact.updated', 'email.unsubscribed'],
  suppressions: [],
});

function expectNoCookiesOrRedirect(response: Response) {
  expect(response.headers.get('set-cookie')).toBeNull();
  expect(response.headers.get('location')).toBeNull();
  expect(response.headers.get('cache-control')).toBe('no-store');
}

beforeAll(async () => {
  app = await startTestApp({ log: captured.log });
  bounceServer = await startBounceServer({ port: 0, host: '127.0.0.1', deps: app.runtime.deps, log: captured.log, name: 'mail.eumail.test' });
});
afterAll(async () => {
  await bounceServer?.close();
  await app?.close();
});
beforeEach(async () => {
  await app.reset();
  captured.lines.length = 0;
});

describe('one-click (RFC 8058)', () => {
  it('unsubscribes the contact, records the email event and counts it once, answering a short text', async () => {
    const s = await seed();
    app.clock.advance(60_000);
    const response = await oneClick(s.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('Unsubscribed\n');
    expectNoCookiesOrRedirect(response);
    expect(await snapshot(s)).toEqual(unsubscribedOnce(s, 'one-click', app.clock.now()));
  });

  it('is idempotent: a repeat, a later form POST or a retry after a while changes and records nothing', async () => {
    const s = await seed();
    await oneClick(s.token);
    const after = await snapshot(s);
    app.clock.advance(3_600_000);
    expect((await oneClick(s.token)).status).toBe(200);
    expect((await formPost(s.token, 'confirm=1')).status).toBe(200);
    const outcome = await unsubscribe(app.runtime.deps, s.token, { everything: false, via: 'mailto' });
    expect(outcome).toMatchObject({ changed: false, state: { status: 'unsubscribed' } });
    expect(await snapshot(s)).toEqual(after);
  });

  it('counts concurrent one-click POSTs of the same message once', async () => {
    const s = await seed();
    const responses = await Promise.all(Array.from({ length: 5 }, () => oneClick(s.token)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await snapshot(s)).toEqual(unsubscribedOnce(s, 'one-click', app.clock.now()));
  });

  it('counts the message once under concurrent POSTs when the contact was unsubscribed already (only the row lock orders them)', async () => {
    const s = await seed();
    await app.runtime.deps.db.update(audienceMemberships).set({ subscribed: false }).where(eq(audienceMemberships.id, s.membershipId));
    await Promise.all(Array.from({ length: 5 }, () => oneClick(s.token)));
    const after = await snapshot(s);
    expect(after.unsubscribedCount).toBe(1);
    expect(after.history).toHaveLength(1);
    expect(after.events.map((e) => e.type)).toEqual(['email.unsubscribed']);
  });

  it('takes the one-click body as multipart/form-data too', async () => {
    const s = await seed();
    const boundary = '----eumail7MA4YWxkTrZu0gW';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    const response = await oneClick(s.token, { body, contentType: `multipart/form-data; boundary=${boundary}` });
    expect(response.status).toBe(200);
    expect((await snapshot(s)).unsubscribedCount).toBe(1);
  });

  it('still unsubscribes the contact when the email itself is gone (retention), without an email event or count', async () => {
    const s = await seed();
    await app.runtime.deps.db.delete(emails).where(eq(emails.id, s.emailId));
    expect((await oneClick(s.token)).status).toBe(200);
    const after = await snapshot(s);
    expect(after.contact).toEqual({ subscribed: false, updatedAt: app.clock.now().toISOString() });
    expect(after.events.map((e) => e.type)).toEqual(['contact.updated']);
    expect(after.history).toEqual([]);
    expect(after.unsubscribedCount).toBe(0);
  });

  it('answers a deleted contact gracefully: nothing to do, nothing recorded', async () => {
    const s = await seed();
    await app.runtime.deps.db.delete(contacts).where(eq(contacts.id, s.contactId));
    const before = await snapshot(s);
    expect((await oneClick(s.token)).status).toBe(200);
    const page = await getPage(s.token);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Nothing to unsubscribe from');
    const form = await formPost(s.token, 'confirm=1&everything=1');
    expect(await form.text()).toContain('Nothing to unsubscribe from');
    expect(await snapshot(s)).toEqual(before);
  });

  it('logs the request without the token', async () => {
    const s = await seed();
    await (await oneClick(s.token)).text();
    const line = captured.lines.find((l) => l.msg === 'request');
    expect(line).toMatchObject({ method: 'POST', path: '/unsubscribe/…', status: 200 });
    expect(JSON.stringify(captured.lines)).not.toContain(s.token);
  });
});

describe('the page', () => {
  it('asks to confirm on GET and changes nothing; HEAD answers the same without a body', async () => {
    const s = await seed();
    const before = await snapshot(s);
    const response = await getPage(s.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expectNoCookiesOrRedirect(response);
    const html = await response.text();
    expect(html).toContain(ADDRESS);
    expect(html).toContain('<strong>Acme</strong>');
    expect(html).toContain('<strong>Weekly news</strong>');
    expect(html).toContain('<form method="post">');
    expect(html).toContain('<input type="hidden" name="confirm" value="1">');
    expect(html).toContain('<input type="checkbox" name="everything" value="1"><span>Also stop all other email from Acme</span>');
    expect(html).toContain('<button type="submit">Unsubscribe</button>');
    // Self-contained: nothing is fetched from anywhere.
    expect(html).not.toMatch(/<(script|img|link|iframe)\b|src=|href=/i);

    const head = await getPage(s.token, 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(await snapshot(s)).toEqual(before);
  });

  it('unsubscribes from the form without suppressing, and says so; GET then says it is done and still offers stop-all', async () => {
    const s = await seed();
    const response = await formPost(s.token, 'confirm=1');
    expect(response.status).toBe(200);
    expectNoCookiesOrRedirect(response);
    const html = await response.text();
    expect(html).toContain('You are unsubscribed');
    expect(html).toContain('<input type="hidden" name="everything" value="1"><button type="submit">Stop all email from Acme</button>');
    expect(await snapshot(s)).toEqual(unsubscribedOnce(s, 'page', app.clock.now()));

    const again = await (await getPage(s.token)).text();
    expect(again).toContain('Already unsubscribed');
    expect(again).toContain('Also stop all other email from Acme');
  });

  it('with "everything", also puts the address on the suppression list, once', async () => {
    const s = await seed();
    const response = await formPost(s.token, 'confirm=1&everything=1');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('gets no other email from Acme either');
    const after = await snapshot(s);
    expect(after).toEqual({ ...unsubscribedOnce(s, 'page', app.clock.now()), suppressions: [{ email: ADDRESS, reason: 'unsubscribe', emailId: null }] });

    await formPost(s.token, 'confirm=1&everything=1');
    expect(await snapshot(s)).toEqual(after);
    const page = await (await getPage(s.token)).text();
    expect(page).toContain('gets no other email from Acme either');
    expect(page).not.toContain('<form');
  });

  it('stops all mail for an address unsubscribed already, without counting the email twice', async () => {
    const s = await seed();
    await oneClick(s.token);
    await formPost(s.token, 'confirm=1&everything=1');
    const after = await snapshot(s);
    expect(after.suppressions).toEqual([{ email: ADDRESS, reason: 'unsubscribe', emailId: null }]);
    expect(after.unsubscribedCount).toBe(1);
    expect(after.history).toHaveLength(1);
  });

  it('escapes every value it shows: hostile organization and audience names', async () => {
    const organization = `<script>alert("org")</script> & 'Sons'`;
    const audience = `</strong><img src=x onerror=alert(1)><form action="https://evil.example">`;
    const s = await seed({ organization, audience });
    const html = await (await getPage(s.token)).text();
    expect(html).toContain('&lt;script&gt;alert(&quot;org&quot;)&lt;/script&gt; &amp; &#39;Sons&#39;');
    expect(html).toContain('&lt;/strong&gt;&lt;img src=x onerror=alert(1)&gt;&lt;form action=&quot;https://evil.example&quot;&gt;');
    expect(html).not.toMatch(/<script|<img|evil\.example"/);
    expect(html.match(/<form/g)).toHaveLength(1);
    expect(html.match(/<strong>/g)).toHaveLength(2);

    const done = await (await formPost(s.token, 'confirm=1')).text();
    expect(done).not.toMatch(/<script|<img|evil\.example"/);
    expect(done).toContain('Stop all email from &lt;script&gt;');
  });

  it('renders hostile values escaped in every state', () => {
    const hostile = `"><script>x()</script>`;
    const escaped = '&quot;&gt;&lt;script&gt;x()&lt;/script&gt;';
    const states: UnsubscribeState[] = (['subscribed', 'unsubscribed'] as const).flatMap((status) =>
      [false, true].flatMap((stoppedAll) =>
        [[], [{ id: newId(), name: hostile, description: hostile, subscribed: stoppedAll }]].map((topics) => ({
          status,
          email: `a${hostile}@example.net`,
          organizationName: hostile,
          audienceName: hostile,
          stoppedAll,
          topic: topics.length > 0 && status === 'subscribed' ? { id: topics[0]!.id, name: hostile } : null,
          inAudience: true,
          unsubscribedAll: false,
          topics,
        })),
      ),
    );
    for (const state of states) {
      for (const html of [confirmPage(state), donePage(state)]) {
        expect(html).not.toContain('<script');
        expect(html).toContain(escaped);
      }
    }
  });
});

describe('refusals', () => {
  it('answers 404 for a bad, tampered or foreign token and changes nothing', async () => {
    const s = await seed();
    const before = await snapshot(s);
    const flipped = `${s.token.slice(0, 10)}${s.token[10] === 'A' ? 'B' : 'A'}${s.token.slice(11)}`;
    const foreign = sealUnsubscribeToken(unsubscribeKeyFrom(Buffer.alloc(32, 9)), { membershipId: s.membershipId, emailId: s.emailId });
    for (const token of [flipped, foreign, s.token.slice(1), `${s.token}A`, 'abc', 'A'.repeat(59)]) {
      const get = await getPage(token);
      expect(get.status, token).toBe(404);
      expect(await get.text()).toContain('Link not found');
      expect((await oneClick(token)).status, token).toBe(404);
      expect((await formPost(token, 'confirm=1&everything=1')).status, token).toBe(404);
    }
    expect((await fetch(`${app.url}/unsubscribe/not%20a%20token`)).status).toBe(404);
    expect((await fetch(`${app.url}/unsubscribe`)).status).toBe(404);
    expect(await snapshot(s)).toEqual(before);
  });

  it("says so on the links of test copies and previews, which name no contact, and changes nothing", async () => {
    const s = await seed();
    const before = await snapshot(s);
    for (const token of ['test', 'preview']) {
      const get = await getPage(token);
      expect(get.status).toBe(200);
      expect(await get.text()).toContain('This is a test copy');
      const post = await oneClick(token);
      expect(post.status).toBe(200);
      expect(await post.text()).toContain('test copy');
    }
    expect(await snapshot(s)).toEqual(before);
  });

  it('answers 405 with Allow for other methods, 413 for an oversized body, 400 for a POST that asks nothing', async () => {
    const s = await seed();
    const before = await snapshot(s);
    const put = await fetch(`${app.url}${pathOf(s.token)}`, { method: 'PUT', body: 'List-Unsubscribe=One-Click' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    const big = await oneClick(s.token, { body: `List-Unsubscribe=One-Click&pad=${'x'.repeat(UNSUBSCRIBE_BODY_LIMIT_BYTES)}` });
    expect(big.status).toBe(413);
    // Chunked, so the size is only known while reading: still a 413, not a dropped connection.
    const chunked = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${app.url}${pathOf(s.token)}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.write('List-Unsubscribe=One-Click&pad=');
      request.end('x'.repeat(UNSUBSCRIBE_BODY_LIMIT_BYTES));
    });
    expect(chunked).toBe(413);
    const empty = await oneClick(s.token, { body: '' });
    expect(empty.status).toBe(400);
    const json = await oneClick(s.token, { body: '{"List-Unsubscribe":"One-Click"}', contentType: 'application/json' });
    expect(json.status).toBe(400);
    expect(await snapshot(s)).toEqual(before);
  });
});

describe('mailto', () => {
  async function mail(to: string): Promise<SMTPTransport.SentMessageInfo> {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: bounceServer.port, secure: false, ignoreTLS: true, name: 'mx.example.net' });
    try {
      return await transport.sendMail({ from: ADDRESS, to, subject: 'unsubscribe', text: 'Please take me off this list.' });
    } finally {
      transport.close();
    }
  }

  const refusal = (to: string) =>
    mail(to).then(
      () => null,
      (error: { responseCode?: number }) => error,
    );

  it('unsubscribes the contact a message to the mailto address names, whatever it says, and only once', async () => {
    const s = await seed();
    const { mailto } = unsubscribeLinks({ appUrl: app.runtime.config.appUrl, mailHost: BOUNCE_DOMAIN }, s.token);
    expect(mailto).toBe(`u-${s.token}@${BOUNCE_DOMAIN}`);
    const info = await mail(mailto);
    expect(info.accepted).toEqual([mailto]);
    expect(await snapshot(s)).toEqual(unsubscribedOnce(s, 'mailto', app.clock.now()));
    expect(captured.lines.find((l) => l.msg === 'unsubscribe by mail')).toMatchObject({ status: 'unsubscribed', changed: true });

    const after = await snapshot(s);
    await mail(mailto);
    expect(await snapshot(s)).toEqual(after);
  });

  it('refuses a bad mailto address at RCPT TO with 550 and changes nothing', async () => {
    const s = await seed();
    const before = await snapshot(s);
    const flipped = `${s.token.slice(0, 10)}${s.token[10] === 'A' ? 'B' : 'A'}${s.token.slice(11)}`;
    // base64url is case-sensitive: a token whose case was changed on the way is not ours.
    for (const address of [`u-${flipped}@${BOUNCE_DOMAIN}`, `u-${s.token.toLowerCase()}@${BOUNCE_DOMAIN}`, `u-abc@${BOUNCE_DOMAIN}`, `u-@${BOUNCE_DOMAIN}`, `unsubscribe@${BOUNCE_DOMAIN}`]) {
      const error = await refusal(address);
      expect(error, address).not.toBeNull();
      expect(error!.responseCode, address).toBe(550);
    }
    expect(await snapshot(s)).toEqual(before);
  });

  it('reads the token out of the address, the prefix in any case', () => {
    expect(mailtoToken('u-AbC_-1@x.test')).toBe('AbC_-1');
    expect(mailtoToken('<U-AbC@x.test>')).toBe('AbC');
    expect(mailtoToken('bounces+1.0.abc@x.test')).toBeNull();
    expect(mailtoToken('u-@x.test')).toBeNull();
  });
});
