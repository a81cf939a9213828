import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { sweepBroadcasts } from '@/server/services/broadcasts/fan-out';
import { sweepContactImports } from '@/server/services/contact-imports/run';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { startTestApp, type TestApp } from './support/app';
import { reviewedSendingOrg } from './support/sending-org';
import { startMxServer, type MxServer } from './support/smtp-mx';

// Issue 36: Resend's own Node SDK (pinned in package.json), unchanged, against this service with a
// `dialect: "resend"` key: every call answers without an error, with the snake_case fields a
// Resend user's code reads, and what it did is checked through the spec's routes with a spec key.
// Mail goes to a loopback MX only; webhook endpoints are never called (no delivery sweep runs).

let app: TestApp;
let mx: MxServer;
beforeAll(async () => {
  mx = await startMxServer();
  app = await startTestApp({
    env: { SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8' },
  });
});
afterAll(async () => {
  await app.close();
  await mx.close();
});

let org: { organizationId: string; apiKey: string; domainId: string };
let resend: Resend;
beforeEach(async () => {
  await app.reset();
  mx.messages.length = 0;
  org = await reviewedSendingOrg(app);
  app.dns.a('mx.example.net', '127.0.0.1');
  app.dns.a('hooks.example.com', '127.0.0.1');
  const created = await spec('POST', '/api-keys', { name: 'Resend SDK', dialect: 'resend' });
  expect(created.status, created.text).toBe(201);
  resend = new Resend(created.body.key, { baseUrl: `${app.url}/api` });
});

/** The spec's own routes, with the organization's first key (the spec's dialect). */
const spec = (method: string, path: string, body?: unknown) => app.request(method, `/api${path}`, { key: org.apiKey, body });

/** The data of an SDK call that must succeed: its error, if any, fails the test with Resend's error body. */
async function ok<T>(call: PromiseLike<{ data: T | null; error: unknown }>): Promise<T> {
  const { data, error } = await call;
  expect(error).toBeNull();
  return data!;
}

describe("Resend's Node SDK", () => {
  it('segments (and audiences, their old name): create, list, get, remove', async () => {
    const segment = await ok(resend.segments.create({ name: 'Newsletter' }));
    expect(segment).toMatchObject({ object: 'segment', id: expect.any(String), name: 'Newsletter' });
    const audience = await ok(resend.audiences.create({ name: 'Old name' }));
    const page = await ok(resend.segments.list());
    expect(page).toMatchObject({ object: 'list', has_more: false });
    expect(page.data.map((item) => item.id)).toEqual([audience.id, segment.id]);
    const got = await ok(resend.segments.get(segment.id));
    expect(got).toMatchObject({ object: 'segment', id: segment.id, name: 'Newsletter', created_at: expect.any(String) });
    expect(await ok(resend.segments.remove(audience.id))).toMatchObject({ object: 'segment', id: audience.id, deleted: true });
    // Through the spec's routes: the one segment left, camelCase.
    const listed = await spec('GET', '/audiences');
    expect(listed.body.data).toEqual([expect.objectContaining({ id: segment.id, name: 'Newsletter', contactCount: 0, createdAt: got.created_at })]);
  });

  it('contact properties, topics and contacts, by id and by address, in segments and topics', async () => {
    const property = await ok(resend.contactProperties.create({ key: 'plan', type: 'string', fallbackValue: 'free' }));
    expect(property).toMatchObject({ object: 'contact_property', id: expect.any(String) });
    // The SDK turns these answers to camelCase itself, from Resend's snake_case.
    expect(await ok(resend.contactProperties.get(property.id))).toMatchObject({ object: 'contact_property', id: property.id, key: 'plan', type: 'string', fallbackValue: 'free', createdAt: expect.any(String) });
    expect((await ok(resend.contactProperties.list())).data).toEqual([expect.objectContaining({ key: 'plan', fallbackValue: 'free' })]);
    await ok(resend.contactProperties.update({ id: property.id, fallbackValue: 'starter' }));

    const topic = await ok(resend.topics.create({ name: 'Product news', defaultSubscription: 'opt_in' }));
    expect(topic.id).toEqual(expect.any(String));
    // The SDK repeats the id in the body of an update.
    await ok(resend.topics.update({ id: topic.id, description: 'What we ship' }));
    expect(await ok(resend.topics.get(topic.id))).toMatchObject({ object: 'topic', id: topic.id, name: 'Product news', description: 'What we ship', default_subscription: 'opt_in' });
    expect((await ok(resend.topics.list())).data).toEqual([expect.objectContaining({ id: topic.id })]);

    const segment = await ok(resend.segments.create({ name: 'Customers' }));
    const ada = await ok(
      resend.contacts.create({ email: 'ada@example.net', firstName: 'Ada', lastName: 'Lovelace', unsubscribed: false, properties: { plan: 'pro' }, segments: [{ id: segment.id }], topics: [{ id: topic.id, subscription: 'opt_in' }] }),
    );
    expect(ada).toMatchObject({ object: 'contact', id: expect.any(String) });
    const byId = await ok(resend.contacts.get({ id: ada.id }));
    expect(byId).toMatchObject({ object: 'contact', id: ada.id, email: 'ada@example.net', first_name: 'Ada', last_name: 'Lovelace', unsubscribed: false, properties: { plan: 'pro' }, created_at: expect.any(String) });
    expect(await ok(resend.contacts.get({ email: 'ada@example.net' }))).toMatchObject({ id: ada.id });
    expect(await ok(resend.contacts.update({ email: 'ada@example.net', firstName: 'Augusta' }))).toMatchObject({ object: 'contact', id: ada.id });
    const inSegment = await ok(resend.contacts.list({ segmentId: segment.id }));
    expect(inSegment).toMatchObject({ object: 'list', has_more: false });
    // A segment's page lists its contacts as the spec's audience routes do (`name`, `subscribed`: docs/resend.md).
    expect(inSegment.data).toEqual([expect.objectContaining({ id: ada.id, email: 'ada@example.net', name: 'Augusta Lovelace', subscribed: true })]);
    const everyone = await ok(resend.contacts.list());
    expect(everyone.data).toEqual([expect.objectContaining({ id: ada.id, email: 'ada@example.net', first_name: 'Augusta', last_name: 'Lovelace', unsubscribed: false })]);
    expect((await ok(resend.contacts.segments.list({ contactId: ada.id }))).data).toEqual([expect.objectContaining({ id: segment.id, name: 'Customers' })]);

    // The legacy form: a contact created in an audience, read and removed by address there.
    const grace = await ok(resend.contacts.create({ audienceId: segment.id, email: 'grace@example.net', firstName: 'Grace' }));
    expect(await ok(resend.contacts.get({ audienceId: segment.id, email: 'grace@example.net' }))).toMatchObject({ object: 'contact', id: grace.id, email: 'grace@example.net', name: 'Grace' });
    await ok(resend.contacts.segments.remove({ email: 'grace@example.net', segmentId: segment.id }));
    await ok(resend.contacts.segments.add({ email: 'grace@example.net', segmentId: segment.id }));
    // Resend's SDK sends a contact's topics as a bare array.
    await ok(resend.contacts.topics.update({ email: 'grace@example.net', topics: [{ id: topic.id, subscription: 'opt_out' }] }));
    const graceTopics = await ok(resend.contacts.topics.list({ email: 'grace@example.net' }));
    expect(graceTopics.data).toEqual([expect.objectContaining({ id: topic.id, name: 'Product news', subscription: 'opt_out' })]);

    // Through the spec's routes.
    const contact = await spec('GET', `/contacts/${ada.id}`);
    expect(contact.body).toMatchObject({ id: ada.id, email: 'ada@example.net', firstName: 'Augusta', lastName: 'Lovelace', properties: { plan: 'pro' } });
    expect((await spec('GET', '/contacts/grace@example.net/topics')).body.data).toEqual([expect.objectContaining({ id: topic.id, subscription: 'opt_out' })]);
    expect((await spec('GET', `/contact-properties/${property.id}`)).body).toMatchObject({ key: 'plan', fallbackValue: 'starter' });

    // An import: a CSV into the segment, run in the background.
    const csv = new Blob(['email,first_name\nlin@example.net,Lin\n'], { type: 'text/csv' });
    const started = await ok(resend.contacts.imports.create({ file: csv, segments: [{ id: segment.id }] }));
    expect(started).toMatchObject({ object: 'contact_import', id: expect.any(String) });
    while ((await sweepContactImports(app.runtime.deps)).handled > 0);
    expect(await ok(resend.contacts.imports.get(started.id))).toMatchObject({ object: 'contact_import', id: started.id, status: 'completed' });
    expect((await ok(resend.contacts.imports.list())).data).toEqual([expect.objectContaining({ id: started.id })]);
    expect((await spec('GET', '/contacts/lin@example.net')).body).toMatchObject({ firstName: 'Lin' });

    expect(await ok(resend.contacts.remove({ email: 'grace@example.net' }))).toMatchObject({ object: 'contact', deleted: true });
    expect((await spec('GET', `/contacts/${grace.id}`)).status).toBe(404);
    expect(await ok(resend.topics.remove(topic.id))).toMatchObject({ object: 'topic', id: topic.id, deleted: true });
    expect(await ok(resend.contactProperties.remove(property.id))).toMatchObject({ deleted: true });
  });

  it('a broadcast to a segment with a topic reaches only the contacts in the topic, with Resend merge tags', async () => {
    const segment = await ok(resend.segments.create({ name: 'Everyone' }));
    const topic = await ok(resend.topics.create({ name: 'Offers', defaultSubscription: 'opt_in' }));
    await ok(resend.contacts.create({ email: 'ada@example.net', firstName: 'Ada', segments: [{ id: segment.id }] }));
    await ok(resend.contacts.create({ email: 'bob@example.net', segments: [{ id: segment.id }], topics: [{ id: topic.id, subscription: 'opt_out' }] }));

    const broadcast = await ok(
      resend.broadcasts.create({
        segmentId: segment.id,
        topicId: topic.id,
        from: 'Acme News <news@acme.example.com>',
        subject: 'Offers for {{{FIRST_NAME|you}}}',
        html: '<p>Hi {{{FIRST_NAME|there}}}</p><p><a href="{{{RESEND_UNSUBSCRIBE_URL}}}">Unsubscribe</a></p>',
        name: 'November offers',
        previewText: 'This month only',
      }),
    );
    expect(broadcast.id).toEqual(expect.any(String));
    expect(await ok(resend.broadcasts.get(broadcast.id))).toMatchObject({ object: 'broadcast', id: broadcast.id, segment_id: segment.id, audience_id: segment.id, topic_id: topic.id, status: 'draft', preview_text: 'This month only', created_at: expect.any(String) });
    expect((await ok(resend.broadcasts.list())).data).toEqual([expect.objectContaining({ id: broadcast.id, name: 'November offers' })]);
    expect(await ok(resend.broadcasts.send(broadcast.id))).toMatchObject({ id: broadcast.id });

    while ((await sweepBroadcasts(app.runtime.deps)).outcomes.more);
    while ((await sweepEmailDispatch(app.runtime.deps)).handled > 0);
    expect(mx.messages.map((message) => message.to)).toEqual([['ada@example.net']]);
    const raw = mx.messages[0]!.raw;
    expect(raw).toMatch(/^Subject: Offers for Ada\r?$/m);
    expect(raw).toContain('Hi Ada');
    expect(raw).toContain('This month only');

    const seen = await spec('GET', `/broadcasts/${broadcast.id}`);
    expect(seen.body).toMatchObject({ id: broadcast.id, audienceId: segment.id, topicId: topic.id, status: 'sent' });
    const copy = await ok(resend.broadcasts.duplicate(broadcast.id));
    expect(await ok(resend.broadcasts.remove(copy.id))).toMatchObject({ object: 'broadcast', id: copy.id, deleted: true });
  });

  it('webhooks: create with an endpoint, get, list, update, rotate the signing secret, remove', async () => {
    const created = await ok(resend.webhooks.create({ endpoint: 'http://hooks.example.com:9/resend', events: ['email.delivered', 'email.bounced'] }));
    expect(created).toMatchObject({ object: 'webhook', id: expect.any(String), signing_secret: expect.stringMatching(/^whsec_/) });
    const got = await ok(resend.webhooks.get(created.id));
    expect(got).toMatchObject({ object: 'webhook', id: created.id, endpoint: 'http://hooks.example.com:9/resend', events: ['email.delivered', 'email.bounced'], created_at: expect.any(String) });
    expect((await ok(resend.webhooks.list())).data).toEqual([expect.objectContaining({ id: created.id, endpoint: 'http://hooks.example.com:9/resend' })]);
    await ok(resend.webhooks.update(created.id, { endpoint: 'http://hooks.example.com:9/v2', events: ['email.sent'] }));
    const rotated = await ok(resend.webhooks.rotateSigningSecret(created.id));
    expect(rotated).toMatchObject({ object: 'webhook', id: created.id, signing_secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.signing_secret).not.toBe(created.signing_secret);

    const seen = await spec('GET', `/webhooks/${created.id}`);
    expect(seen.body).toMatchObject({ id: created.id, url: 'http://hooks.example.com:9/v2', events: ['email.sent'] });
    expect((await spec('GET', `/webhooks/${created.id}/secret`)).body.secret).toBe(rotated.signing_secret);
    expect(await ok(resend.webhooks.remove(created.id))).toMatchObject({ object: 'webhook', id: created.id, deleted: true });
    expect((await spec('GET', '/webhooks')).body.data).toEqual([]);
  });

  it('templates: create then publish, from, reply_to and alias kept, a draft until published, a send by template that gives no from', async () => {
    const created = await ok(
      resend.templates
        .create({
          name: 'Order confirmation',
          alias: 'order-confirmation',
          from: 'Acme Orders <orders@acme.example.com>',
          replyTo: 'help@acme.example.com',
          subject: 'Order {{{ORDER}}}',
          html: '<p>Thanks {{{NAME|friend}}}, order {{{ORDER}}} is on its way.</p>',
          variables: [
            { key: 'ORDER', type: 'string' },
            { key: 'NAME', type: 'string', fallbackValue: 'friend' },
          ],
        })
        .publish(),
    );
    expect(created).toMatchObject({ object: 'template', id: expect.any(String) });
    const got = await ok(resend.templates.get(created.id));
    expect(got).toMatchObject({
      object: 'template',
      id: created.id,
      alias: 'order-confirmation',
      name: 'Order confirmation',
      from: 'Acme Orders <orders@acme.example.com>',
      reply_to: ['help@acme.example.com'],
      status: 'published',
      published_at: expect.any(String),
      variables: [
        { key: 'ORDER', type: 'string', fallback_value: null },
        { key: 'NAME', type: 'string', fallback_value: 'friend' },
      ],
    });

    // Published, it keeps changes as a draft until the next publish.
    await ok(resend.templates.update(created.id, { subject: 'Your order {{{ORDER}}}' }));
    expect(await ok(resend.templates.get(created.id))).toMatchObject({ status: 'draft', subject: 'Your order {{{ORDER}}}' });
    expect((await ok(resend.templates.list())).data).toEqual([expect.objectContaining({ id: created.id, alias: 'order-confirmation', status: 'draft' })]);
    await ok(resend.templates.publish(created.id));

    const sent = await ok(resend.emails.send({ to: 'ada@example.net', template: { id: created.id, variables: { ORDER: 'A-42' } } }));
    expect(sent.id).toEqual(expect.any(String));
    while ((await sweepEmailDispatch(app.runtime.deps)).handled > 0);
    expect(mx.messages).toHaveLength(1);
    const raw = mx.messages[0]!.raw;
    expect(raw).toMatch(/^From: Acme Orders <orders@acme\.example\.com>\r?$/m);
    expect(raw).toMatch(/^Reply-To: help@acme\.example\.com\r?$/m);
    expect(raw).toMatch(/^Subject: Your order A-42\r?$/m);
    expect(raw).toContain('Thanks friend, order A-42 is on its way.');

    const email = await ok(resend.emails.get(sent.id));
    expect(email).toMatchObject({ object: 'email', id: sent.id, from: 'Acme Orders <orders@acme.example.com>', reply_to: ['help@acme.example.com'], subject: 'Your order A-42', last_event: expect.stringMatching(/^(sent|delivered)$/), created_at: expect.any(String) });
    const seen = await spec('GET', `/emails/${sent.id}`);
    expect(seen.body).toMatchObject({ id: sent.id, status: email.last_event, replyTo: ['help@acme.example.com'], subject: 'Your order A-42' });
    expect((await spec('GET', `/templates/${created.id}`)).body).toMatchObject({ alias: 'order-confirmation', from: 'Acme Orders <orders@acme.example.com>', replyTo: ['help@acme.example.com'], status: 'published' });

    const copy = await ok(resend.templates.duplicate(created.id));
    expect(await ok(resend.templates.remove(copy.id))).toMatchObject({ object: 'template', id: copy.id, deleted: true });
  });

  it('emails, batch, suppressions, domains and API keys', async () => {
    const sent = await ok(resend.emails.send({ from: 'Acme <hello@acme.example.com>', to: ['ada@example.net'], subject: 'Hi', text: 'Hello', tags: [{ name: 'kind', value: 'welcome' }] }));
    const batch = await ok(
      resend.batch.send([
        { from: 'Acme <hello@acme.example.com>', to: 'bob@example.net', subject: 'One', text: '1' },
        { from: 'Acme <hello@acme.example.com>', to: 'eve@example.net', subject: 'Two', text: '2' },
      ]),
    );
    expect(batch.data).toEqual([{ id: expect.any(String) }, { id: expect.any(String) }]);
    const listed = await ok(resend.emails.list());
    expect(listed).toMatchObject({ object: 'list', has_more: false });
    expect(listed.data.map((email) => email.id)).toContain(sent.id);

    const added = await ok(resend.suppressions.add({ email: 'gone@example.net' }));
    expect(added).toMatchObject({ object: 'suppression', id: expect.any(String) });
    expect(await ok(resend.suppressions.get('gone@example.net'))).toMatchObject({ object: 'suppression', id: added.id, email: 'gone@example.net', origin: 'manual', source_id: null, created_at: expect.any(String) });
    expect((await ok(resend.suppressions.list())).data).toEqual([expect.objectContaining({ id: added.id, email: 'gone@example.net' })]);
    expect((await spec('GET', '/suppressions')).body.data).toEqual([expect.objectContaining({ email: 'gone@example.net', reason: 'manual' })]);
    expect(await ok(resend.suppressions.remove('gone@example.net'))).toMatchObject({ object: 'suppression', deleted: true });
    expect((await spec('GET', '/suppressions')).body.data).toEqual([]);

    const domains = await ok(resend.domains.list());
    expect(domains.data).toContainEqual(expect.objectContaining({ id: org.domainId, name: 'acme.example.com', status: 'verified', created_at: expect.any(String) }));
    expect(await ok(resend.domains.get(org.domainId))).toMatchObject({ object: 'domain', id: org.domainId, name: 'acme.example.com' });
    expect(await ok(resend.domains.verify(org.domainId))).toMatchObject({ object: 'domain', id: org.domainId });

    const key = await ok(resend.apiKeys.create({ name: 'Deploys' }));
    expect(key).toMatchObject({ object: 'api_key', id: expect.any(String), token: expect.stringMatching(/^eu_live_/) });
    expect((await ok(resend.apiKeys.list())).data.map((item) => item.name)).toEqual(['Deploys', 'Resend SDK', 'Default key']);
    await ok(resend.apiKeys.remove(key.id));
    expect((await spec('GET', '/api-keys')).body.data.map((item: { name: string; dialect: string }) => [item.name, item.dialect])).toEqual([
      ['Resend SDK', 'resend'],
      ['Default key', 'spec'],
    ]);
  });

  it("answers a refusal in Resend's error shape, which the SDK hands over as `error`", async () => {
    const missing = await resend.templates.get('0190c1de-0000-7000-8000-000000000000');
    expect(missing.data).toBeNull();
    expect(missing.error).toEqual({ statusCode: 404, name: 'not_found', message: 'Template not found' });
    const invalid = await resend.segments.create({ name: '' });
    expect(invalid.error).toMatchObject({ statusCode: 400, name: 'validation_error', message: expect.stringMatching(/^name/) });
    // A call this service does not offer: Resend's shape too, from the route table's 404.
    const logs = await resend.logs.list();
    expect(logs.error).toEqual({ statusCode: 404, name: 'not_found', message: 'No route for GET /logs' });
  });
});
