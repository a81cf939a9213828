import { simpleParser } from 'mailparser';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, emailAttachments, emailEvents, emails, events, suppressions } from '@/db/schema';
import { runAdminCommand } from '@/server/admin/commands';
import { closeOutboundConnections } from '@/server/net/outbound';
import { sweepAutomationRuns } from '@/server/services/automations';
import { sweepBroadcasts } from '@/server/services/broadcasts/fan-out';
import { sweepContactImports } from '@/server/services/contact-imports/run';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { applyRetention } from '@/server/services/emails/retention';
import { suppressionHash } from '@/server/services/suppressions/address-hash';
import { DAY_MS } from '@/server/services/shared/time';
import { startTestApp, type TestApp } from './support/app';
import { uploadImport } from './support/contact-imports';
import { dashboardCall, makeMemberOf, signUpPerson } from './support/dashboard-session';
import { keyFor } from './support/keys';
import { sendingOrg } from './support/sending-org';
import { startMxServer, type MxServer, type Refusal } from './support/smtp-mx';

// The data-subject request helper (GET and DELETE /recipients/{email}/data): docs/privacy.md.
// Live mail goes to a real SMTP server on loopback; the database is the real one.

let app: TestApp;
let mx: MxServer;
let rcpt: (address: string) => Refusal | Promise<Refusal> = () => null;
beforeAll(async () => {
  mx = await startMxServer({ rcpt: (address) => rcpt(address) });
  app = await startTestApp({ env: { SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8' } });
});
afterAll(async () => {
  await closeOutboundConnections();
  await app.close();
  await mx.close();
});

let org: { organizationId: string; apiKey: string; domainId: string };
beforeEach(async () => {
  await app.reset();
  rcpt = () => null;
  mx.messages.length = 0;
  // Settled and reviewed, so a broadcast is neither held nor limited.
  org = await sendingOrg(app, { createdAt: new Date(app.clock.now().getTime() - 60 * DAY_MS) });
  await runAdminCommand(app.runtime.deps, 'org:review', { org: org.organizationId, approve: true });
  app.dns.a('mx.example.net', '127.0.0.1');
});

const ADA = 'ada@example.net';
const deps = () => app.runtime.deps;
const path = (address: string) => `/api/recipients/${encodeURIComponent(address)}/data`;
const read = (address: string, key = org.apiKey) => app.request('GET', path(address), { key });
const erase = (address: string, key = org.apiKey) => app.request('DELETE', path(address), { key });

async function send(body: Record<string, unknown>, key = org.apiKey) {
  return app.request('POST', '/api/emails', { key, body: { from: 'Acme <hello@acme.example.com>', subject: 'Your receipt', text: 'Thanks', ...body } });
}

async function sent(body: Record<string, unknown>, key = org.apiKey): Promise<string> {
  const response = await send(body, key);
  expect(response.status, response.text).toBe(200);
  return response.body.id as string;
}

async function audience(name: string, contacts: Array<{ email: string; name?: string; subscribed?: boolean }>, key = org.apiKey): Promise<string> {
  const created = await app.request('POST', '/api/audiences', { key, body: { name } });
  expect(created.status, created.text).toBe(201);
  const added = await app.request('POST', `/api/audiences/${created.body.id}/contacts/batch`, { key, body: { contacts } });
  expect(added.status, added.text).toBeLessThan(300);
  return created.body.id as string;
}

/** Ada in this organization: a live email with an attachment (delivered), a test-mode email, two audiences, and an unsubscribe on the list. */
async function adaEverywhere() {
  const live = await sent({
    to: ['Ada <Ada@Example.net>', 'bob@example.net'],
    attachments: [{ filename: 'receipt.txt', content: Buffer.from('receipt').toString('base64') }],
  });
  await sweepEmailDispatch(deps());
  const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
  const test = await sent({ to: ADA }, testKey);
  const newsletter = await audience('Newsletter', [{ email: ADA, name: 'Ada' }, { email: 'bob@example.net' }]);
  const offers = await audience('Offers', [{ email: 'ADA@example.net', subscribed: false }]);
  const suppressed = await app.request('POST', '/api/suppressions', { key: org.apiKey, body: { email: ADA, reason: 'unsubscribe' } });
  expect(suppressed.status, suppressed.text).toBe(200);
  return { live, test, newsletter, offers, suppressionId: suppressed.body.id as string };
}

describe('GET /recipients/{email}/data', () => {
  it('lists every email (both modes), event, contact and suppression entry of one address, whatever its spelling', async () => {
    const ada = await adaEverywhere();
    const response = await read('Ada@EXAMPLE.net');
    expect(response.status, response.text).toBe(200);
    const data = response.body;
    expect(data.email).toBe(ADA);
    expect(data.emails).toEqual([
      { id: ada.live, mode: 'live', subject: 'Your receipt', status: 'delivered', createdAt: expect.any(String), role: 'recipient' },
      { id: ada.test, mode: 'test', subject: 'Your receipt', status: expect.any(String), createdAt: expect.any(String), role: 'recipient' },
    ]);
    // The event log about Ada: her emails' events and her two contacts' creation.
    const types = data.events.map((event: { type: string }) => event.type);
    expect(types.filter((type: string) => type === 'contact.created')).toHaveLength(2);
    expect(types).toEqual(expect.arrayContaining(['email.queued', 'email.sent', 'email.delivered']));
    for (const event of data.events.filter((e: { type: string }) => e.type.startsWith('email.'))) expect([ada.live, ada.test]).toContain(event.emailId);
    expect(data.contacts).toEqual([
      { id: expect.any(String), audienceId: ada.newsletter, audienceName: 'Newsletter', name: 'Ada', subscribed: true, createdAt: expect.any(String) },
      // One contact per address: her name is the contact's, her subscription each audience's own.
      { id: data.contacts[0].id, audienceId: ada.offers, audienceName: 'Offers', name: 'Ada', subscribed: false, createdAt: expect.any(String) },
    ]);
    expect(data.suppressions).toEqual([{ id: ada.suppressionId, reason: 'unsubscribe', createdAt: expect.any(String), emailId: null, hashed: false }]);

    // The same answer for the address written with a bare @ in the path, and nothing of Bob's in it.
    const bare = await app.request('GET', `/api/recipients/${ADA}/data`, { key: org.apiKey });
    expect(bare.body).toEqual(data);
    expect(JSON.stringify(data)).not.toContain('bob@');
  });

  it("holds Ada's contact (names, properties, engagement, global unsubscribe), her own topic choices and the import rows that named her", async () => {
    await adaEverywhere();
    const call = (method: 'POST' | 'PATCH', url: string, body: unknown) => app.request(method, `/api${url}`, { key: org.apiKey, body });
    expect((await call('POST', '/contact-properties', { key: 'plan', type: 'string' })).status).toBe(201);
    const news = (await call('POST', '/topics', { name: 'Product news', default_subscription: 'opt_in' })).body.id as string;
    const offers = (await call('POST', '/topics', { name: 'Offers', default_subscription: 'opt_out' })).body.id as string;
    await call('POST', '/topics', { name: 'Never chosen', default_subscription: 'opt_in' });
    expect((await call('PATCH', `/contacts/${ADA}`, { first_name: 'Ada', last_name: 'Lovelace', properties: { plan: 'pro' } })).status).toBe(200);
    expect((await call('PATCH', `/contacts/${ADA}/topics`, { topics: [{ id: offers, subscription: 'opt_in' }, { id: news, subscription: 'opt_out' }] })).status).toBe(200);
    // An import that could not store a row for her, and one row for someone else.
    const upload = await uploadImport(app, org.apiKey, 'email,plan_seats\nADA@example.net <x>,1\nbob@,2\n', { column_map: { email: 'email' } });
    expect(upload.status, upload.text).toBe(202);
    while ((await sweepContactImports(deps())).outcomes.more);

    const data = (await read(ADA)).body;
    expect(data.contact).toEqual({
      id: data.contacts[0].id,
      email: ADA,
      name: 'Ada',
      firstName: 'Ada',
      lastName: 'Lovelace',
      unsubscribed: false,
      pending: false,
      properties: { plan: 'pro' },
      engagement: { lastDeliveredAt: null, lastOpenedAt: null, lastClickedAt: null },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(data.topics).toEqual([
      { id: news, name: 'Product news', subscription: 'opt_out', updatedAt: expect.any(String) },
      { id: offers, name: 'Offers', subscription: 'opt_in', updatedAt: expect.any(String) },
    ]);
    expect(data.imports).toEqual([{ id: upload.body.id, fileName: 'contacts.csv', createdAt: expect.any(String), errors: [{ row: 2, email: 'ADA@example.net <x>', error: expect.any(String) }] }]);
  });

  it('finds, and erases, a contact that is in no audience', async () => {
    const created = await app.request('POST', '/api/contacts', { key: org.apiKey, body: { email: 'Grace@example.net', first_name: 'Grace' } });
    expect(created.status, created.text).toBe(201);
    const held = await read('grace@example.net');
    expect(held.status, held.text).toBe(200);
    expect(held.body).toMatchObject({ contacts: [], contact: { id: created.body.id, firstName: 'Grace' }, topics: [], imports: [] });
    const erased = await erase('grace@example.net');
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.erased).toEqual({ emails: 0, events: expect.any(Number), contacts: 1, suppressions: 0 });
    expect((await app.request('GET', `/api/contacts/${created.body.id}`, { key: org.apiKey })).status).toBe(404);
    expect((await read('grace@example.net')).status).toBe(404);
  });

  it('lists the automation runs of the address (both modes, each step taken) and the events sent for it; an event alone is data held', async () => {
    const automation = await app.request('POST', '/api/automations', {
      key: org.apiKey,
      body: {
        name: 'Onboarding',
        status: 'enabled',
        steps: [
          { key: 'start', type: 'trigger', config: { event_name: 'user.created' } },
          { key: 'mark', type: 'contact_update', config: { last_name: 'Onboarded' } },
        ],
        connections: [{ from: 'start', to: 'mark' }],
      },
    });
    expect(automation.status, automation.text).toBe(201);
    const created = await app.request('POST', '/api/contacts', { key: org.apiKey, body: { email: ADA } });
    expect(created.status, created.text).toBe(201);
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const live = await app.request('POST', '/api/events/send', { key: org.apiKey, body: { event: 'user.created', email: ADA, payload: { plan: 'team' } } });
    expect(live.status, live.text).toBe(202);
    const test = await app.request('POST', '/api/events/send', { key: testKey, body: { event: 'user.created', email: ADA } });
    expect(test.status, test.text).toBe(202);
    await sweepAutomationRuns(deps());
    // Another address's run and event are not hers.
    await app.request('POST', '/api/contacts', { key: org.apiKey, body: { email: 'bob@example.net' } });
    await app.request('POST', '/api/events/send', { key: org.apiKey, body: { event: 'user.created', email: 'bob@example.net' } });
    await sweepAutomationRuns(deps());

    const held = await read(ADA);
    expect(held.status, held.text).toBe(200);
    const step = (key: string, type: string) => ({ key, type, status: 'completed', startedAt: expect.any(String), completedAt: expect.any(String) });
    const run = (mode: string, payload: Record<string, unknown>) => ({
      id: expect.any(String),
      automationId: automation.body.id,
      automationName: 'Onboarding',
      mode,
      status: 'completed',
      event: { name: 'user.created', payload },
      startedAt: expect.any(String),
      completedAt: expect.any(String),
      createdAt: expect.any(String),
      steps: [step('start', 'trigger'), step('mark', 'contact_update')],
    });
    expect(held.body.automationRuns).toEqual([run('live', { plan: 'team' }), run('test', {})]);
    expect(held.body.receivedEvents).toEqual([
      { id: live.body.id, event: 'user.created', mode: 'live', payload: { plan: 'team' }, runsStarted: 1, waitsEnded: 0, contactCreation: null, createdAt: expect.any(String) },
      { id: test.body.id, event: 'user.created', mode: 'test', payload: {}, runsStarted: 1, waitsEnded: 0, contactCreation: null, createdAt: expect.any(String) },
    ]);

    // An event for an address that is no contact is held all the same (and erased).
    const kept = await app.request('POST', '/api/events/send', { key: org.apiKey, body: { event: 'user.created', email: 'eve@example.net' } });
    expect(kept.status, kept.text).toBe(202);
    const eve = await read('eve@example.net');
    expect(eve.status, eve.text).toBe(200);
    expect(eve.body).toMatchObject({ contact: null, automationRuns: [], receivedEvents: [{ id: kept.body.id, runsStarted: 0 }] });
    expect((await erase('eve@example.net')).status).toBe(200);
    expect((await read('eve@example.net')).status).toBe(404);
  });

  it('answers 404 for an address the organization holds nothing of, even one another organization holds', async () => {
    const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
    await audience('Theirs', [{ email: ADA }], other.apiKey);
    const response = await read(ADA);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: expect.any(String), code: 'NOT_FOUND' });
    expect((await read(ADA, other.apiKey)).status).toBe(200);
  });

  it('refuses what is not an address with 400, naming the field', async () => {
    for (const [given, message] of [
      ['not-an-address', /^email: /],
      ['Ada <ada@example.net>', /^email: give the bare address/],
    ] as const) {
      const response = await read(given);
      expect(response.status, given).toBe(400);
      expect(response.body).toEqual({ error: expect.stringMatching(message), code: 'VALIDATION_ERROR' });
    }
    const malformed = await app.request('GET', '/api/recipients/ada%zz/data', { key: org.apiKey });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('DELETE /recipients/{email}/data', () => {
  it('erases everything but a hashed suppression; a later send to the address is still suppressed', async () => {
    const ada = await adaEverywhere();
    const attachmentIds = (await deps().db.select({ id: emailAttachments.id }).from(emailAttachments).where(eq(emailAttachments.emailId, ada.live))).map((row) => row.id);
    expect(attachmentIds).toHaveLength(1);

    const response = await erase(ADA);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      email: ADA,
      erased: { emails: 2, events: expect.any(Number), contacts: 2, suppressions: 0 },
      keptSuppression: { id: ada.suppressionId, reason: 'unsubscribe' },
      // Her consent history stays as the proof, by hash (docs/consent.md): the contact, its two audiences, the suppression.
      consentEntriesHashed: 4,
    });
    expect(response.body.erased.events).toBeGreaterThanOrEqual(6);

    // What is left: the one entry, as a hash.
    const after = await read(ADA);
    expect(after.status).toBe(200);
    expect(after.body).toEqual({
      email: ADA,
      emails: [],
      events: [],
      contacts: [],
      suppressions: [{ id: ada.suppressionId, reason: 'unsubscribe', createdAt: expect.any(String), emailId: null, hashed: true }],
      contact: null,
      topics: [],
      imports: [],
      consent: expect.any(Array),
      formSubmissions: [],
      automationRuns: [],
      receivedEvents: [],
    });
    // Her consent history, found by the hash: the entries, with no address and no client in them.
    expect(after.body.consent).toHaveLength(4);
    for (const entry of after.body.consent) expect(entry).toMatchObject({ email: null, clientAddress: null, userAgent: null });

    // And in the tables themselves, nowhere the address in clear.
    const db = deps().db;
    const [entry] = await db.select().from(suppressions).where(eq(suppressions.id, ada.suppressionId));
    const hash = suppressionHash(deps().encryptionKey, org.organizationId, ADA);
    expect(entry).toMatchObject({ email: null, emailHash: hash, reason: 'unsubscribe', emailId: null });
    expect(await db.select({ id: emails.id }).from(emails).where(inArray(emails.id, [ada.live, ada.test]))).toEqual([]);
    expect(await db.select({ id: emailEvents.id }).from(emailEvents).where(inArray(emailEvents.emailId, [ada.live, ada.test]))).toEqual([]);
    expect(await db.select({ id: emailAttachments.id }).from(emailAttachments).where(inArray(emailAttachments.id, attachmentIds))).toEqual([]);
    const mentions = await db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.organizationId, org.organizationId), sql`lower(${events.data}::text) like '%ada@example.net%'`));
    expect(mentions).toEqual([]);
    // Bob's contact stays, and the audiences' counts follow the erasure.
    const audiences = (await app.request('GET', '/api/audiences', { key: org.apiKey })).body.data as Array<{ name: string; contactCount: number }>;
    expect(Object.fromEntries(audiences.map((a) => [a.name, a.contactCount]))).toEqual({ Newsletter: 1, Offers: 0 });
    // The list and its export show no entry without an address.
    expect((await app.request('GET', '/api/suppressions', { key: org.apiKey })).body.data).toEqual([]);
    expect((await app.request('GET', '/api/suppressions/export', { key: org.apiKey })).text.trim()).toBe('email,reason,created_at');

    // Recorded in the audit log under the hash, never the address.
    const audit = await db.select().from(auditEvents).where(eq(auditEvents.organizationId, org.organizationId));
    const erasure = audit.find((row) => row.action === 'recipient.erased')!;
    expect(erasure).toMatchObject({
      actorKind: 'api_key',
      targetType: 'recipient',
      targetId: hash,
      targetLabel: `address hash ${hash.slice(0, 12)}…`,
      details: { emails: 2, contacts: 2, suppressions: 0, events: response.body.erased.events, suppressionKept: 'unsubscribe' },
    });
    expect(JSON.stringify(audit).toLowerCase()).not.toContain('ada@');

    // Sends to the address stay suppressed: alone it is refused, beside another recipient it is skipped.
    const alone = await send({ to: 'Ada@example.net' });
    expect(alone.status).toBe(403);
    expect(alone.body.code).toBe('ALL_SUPPRESSED');
    const withBob = await sent({ to: [ADA, 'bob@example.net'] });
    const history = (await app.request('GET', `/api/emails/${withBob}`, { key: org.apiKey })).body.events as Array<{ type: string; recipient: string | null }>;
    expect(history).toContainEqual(expect.objectContaining({ type: 'email.suppressed', recipient: ADA }));
    const batch = await app.request('POST', '/api/emails/batch', { key: org.apiKey, body: [{ from: 'Acme <hello@acme.example.com>', to: ADA, subject: 'Hi', text: 'Hi' }] });
    expect(batch.body.data).toEqual([{ error: expect.any(String), code: 'ALL_SUPPRESSED' }]);

    // The email sent since names her (as a suppressed recipient): a second erasure takes it; a third changes nothing and records nothing.
    const again = await erase(ADA);
    expect(again.body).toMatchObject({ erased: { emails: 1, contacts: 0, suppressions: 0 }, keptSuppression: { id: ada.suppressionId } });
    const third = await erase(ADA);
    expect(third.status).toBe(200);
    expect(third.body).toEqual({ email: ADA, erased: { emails: 0, events: 0, contacts: 0, suppressions: 0 }, keptSuppression: { id: ada.suppressionId, reason: 'unsubscribe' }, consentEntriesHashed: 0 });
    expect((await db.select().from(auditEvents).where(eq(auditEvents.action, 'recipient.erased'))).length).toBe(2);
  });

  it('keeps a broadcast from reaching an erased address that was added to an audience again', async () => {
    await adaEverywhere();
    expect((await erase(ADA)).status).toBe(200);
    const audienceId = await audience('Relaunch', [{ email: ADA }, { email: 'bob@example.net' }]);
    const created = await app.request('POST', '/api/broadcasts', {
      key: org.apiKey,
      body: { audience_id: audienceId, from: 'Acme News <news@acme.example.com>', subject: 'News', html: '<p>Hi</p><a href="{{ unsubscribe_url }}">Unsubscribe</a>' },
    });
    expect(created.status, created.text).toBe(201);
    expect((await app.request('POST', `/api/broadcasts/${created.body.id}/send`, { key: org.apiKey })).status).toBe(200);
    for (let i = 0; i < 10 && (await sweepBroadcasts(deps())).outcomes.more; i += 1);
    const broadcast = (await app.request('GET', `/api/broadcasts/${created.body.id}`, { key: org.apiKey })).body;
    expect(broadcast.counts).toMatchObject({ suppressed: 1, queued: 1 });
    const addressed = await deps().db.select({ to: emails.to }).from(emails).where(eq(emails.broadcastId, created.body.id));
    expect(addressed).toEqual([{ to: ['bob@example.net'] }]);
  });

  it('un-suppressing the address by DELETE /suppressions/{address} removes the hashed entry too', async () => {
    const ada = await adaEverywhere();
    expect((await erase(ADA)).status).toBe(200);
    const removed = await app.request('DELETE', `/api/suppressions/${encodeURIComponent(ADA)}`, { key: org.apiKey });
    expect(removed.status, removed.text).toBe(200);
    expect(await deps().db.select().from(suppressions).where(eq(suppressions.id, ada.suppressionId))).toEqual([]);
    expect((await send({ to: ADA })).status).toBe(200);
  });

  it('deletes a bounce suppression outright: the address did not ask not to be mailed', async () => {
    rcpt = (address) => (address === ADA ? { code: 550, message: '5.1.1 User unknown' } : null);
    const id = await sent({ to: ADA });
    await sweepEmailDispatch(deps());
    const before = (await read(ADA)).body;
    expect(before.suppressions).toEqual([{ id: expect.any(String), reason: 'bounce', createdAt: expect.any(String), emailId: id, hashed: false }]);

    const response = await erase(ADA);
    expect(response.body).toMatchObject({ erased: { emails: 1, contacts: 0, suppressions: 1 }, keptSuppression: null });
    expect((await read(ADA)).status).toBe(404);
    expect(await deps().db.select().from(suppressions).where(eq(suppressions.organizationId, org.organizationId))).toEqual([]);
    rcpt = () => null;
    expect((await send({ to: ADA })).status).toBe(200);
  });

  it("leaves a second organization's data for the same address untouched", async () => {
    const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
    await audience('Theirs', [{ email: ADA }], other.apiKey);
    expect((await app.request('POST', '/api/suppressions', { key: other.apiKey, body: { email: ADA, reason: 'manual' } })).status).toBe(200);
    const theirsBefore = (await read(ADA, other.apiKey)).body;
    await adaEverywhere();

    expect((await erase(ADA)).status).toBe(200);
    const theirsAfter = await read(ADA, other.apiKey);
    expect(theirsAfter.status).toBe(200);
    expect(theirsAfter.body).toEqual(theirsBefore);
    expect(theirsAfter.body.suppressions).toEqual([expect.objectContaining({ reason: 'manual', hashed: false })]);
    // Erasing where the organization holds nothing is a 404 and touches nothing.
    const nothing = await app.createOrg({ name: 'Empty', ownerEmail: 'owner@empty.test' });
    expect((await erase(ADA, nothing.apiKey)).status).toBe(404);
    expect((await read(ADA, other.apiKey)).body).toEqual(theirsBefore);
  });

  it('finds and erases event-log copies that outlive their email (a late open)', async () => {
    const id = await sent({ to: 'Ada <ada@example.net>', html: '<p>Hello</p>', tracking: { opens: true } });
    await sweepEmailDispatch(deps());
    app.clock.advance(20 * DAY_MS);
    const mail = await simpleParser(mx.messages[0]!.raw);
    const pixel = /src="http:\/\/127\.0\.0\.1:3000(\/t\/o\/[A-Za-z0-9_-]+)"/.exec(String(mail.html))![1]!;
    await (await fetch(`${app.url}${pixel}`)).arrayBuffer();
    app.clock.advance(11 * DAY_MS);
    await applyRetention(deps());

    const data = (await read(ADA)).body;
    expect(data.emails).toEqual([]);
    expect(data.events).toEqual([{ id: expect.any(String), type: 'email.opened', createdAt: expect.any(String), emailId: id }]);
    expect((await erase(ADA)).body.erased).toEqual({ emails: 0, events: 1, contacts: 0, suppressions: 0 });
    expect((await read(ADA)).status).toBe(404);
  });

  it('erases a scheduled email before it is sent, and answers 409 while a worker is handing one over', async () => {
    const later = new Date(app.clock.now().getTime() + 3_600_000).toISOString();
    await sent({ to: ADA, scheduled_at: later });
    // The MX holds its answer to slow@ until released: the worker holds the email meanwhile.
    const gate: { release: (() => void) | null } = { release: null };
    rcpt = (address) => (address === 'slow@example.net' ? new Promise<Refusal>((resolve) => (gate.release = () => resolve(null))) : null);
    await sent({ to: ['slow@example.net'] });
    await sent({ to: [ADA, 'slow@example.net'] });
    const dispatching = sweepEmailDispatch(deps());
    for (let i = 0; i < 200 && !gate.release; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(gate.release).not.toBeNull();

    const busy = await erase(ADA);
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual({ error: expect.stringMatching(/being handed to a mail server/), code: 'CONFLICT' });
    expect((await read(ADA)).body.emails).toHaveLength(2);

    gate.release!();
    rcpt = () => null;
    // The other held recipient's transaction may wait on its own answer too: release each.
    for (let i = 0; i < 200; i += 1) {
      const settled = await Promise.race([dispatching.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 10))]);
      if (settled) break;
      gate.release?.();
    }
    await dispatching;
    const done = await erase(ADA);
    expect(done.status, done.text).toBe(200);
    expect(done.body.erased.emails).toBe(2);

    // The scheduled one is gone with the rest: its time comes and nothing is sent to Ada.
    mx.messages.length = 0;
    app.clock.advance(2 * 3_600_000);
    await sweepEmailDispatch(deps());
    expect(mx.messages.flatMap((message) => message.to)).not.toContain(ADA);
  });
});

describe('who may ask', () => {
  it('a sending_access key or a test key: 403 on both; the owner in the dashboard, not another member', async () => {
    await adaEverywhere();
    for (const key of [await keyFor(app, org.organizationId, 'sending_access', 'live'), await keyFor(app, org.organizationId, 'full_access', 'test')]) {
      for (const response of [await read(ADA, key), await erase(ADA, key)]) {
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ error: expect.any(String), code: 'FORBIDDEN' });
      }
    }
    expect((await read(ADA)).body.emails).toHaveLength(2);

    const owner = await signUpPerson(app, 'owner@privacy.test');
    expect((await dashboardCall(app, owner.cookie, 'mutation', 'suppressions.create', { email: ADA, reason: 'manual' })).status).toBe(200);
    const ownersAda = await dashboardCall(app, owner.cookie, 'query', 'privacy.recipientData', { email: ADA });
    expect(ownersAda.status).toBe(200);
    expect(ownersAda.data.suppressions).toEqual([expect.objectContaining({ reason: 'manual', hashed: false })]);
    const member = await signUpPerson(app, 'member@privacy.test');
    await makeMemberOf(app, member, owner.organizationId);
    expect((await dashboardCall(app, member.cookie, 'query', 'privacy.recipientData', { email: ADA })).status).toBe(403);
    expect((await dashboardCall(app, member.cookie, 'mutation', 'privacy.eraseRecipientData', { email: ADA })).status).toBe(403);
    const erased = await dashboardCall(app, owner.cookie, 'mutation', 'privacy.eraseRecipientData', { email: ADA });
    expect(erased.status).toBe(200);
    expect(erased.data.keptSuppression).toMatchObject({ reason: 'manual' });
    const [audit] = await deps().db.select().from(auditEvents).where(and(eq(auditEvents.organizationId, owner.organizationId), eq(auditEvents.action, 'recipient.erased')));
    expect(audit).toMatchObject({ actorKind: 'user', actorId: owner.userId });
    // Ada's data in this organization was not the owner's to erase.
    expect((await read(ADA)).body.emails).toHaveLength(2);
  });
});
