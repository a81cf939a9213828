import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { audienceMemberships, contacts, emails } from '@/db/schema';
import { sweepBroadcasts } from '@/server/services/broadcasts/fan-out';
import { DAY_MS } from '@/server/services/shared/time';
import { startTestApp, type TestApp } from './support/app';
import { reviewedSendingOrg } from './support/sending-org';

// Issue 35 item 5, beyond Resend: a segment defined by rules on property values and on the
// engagement summary, evaluated when it is made or changed and when a broadcast to it is handed
// off, with a live count.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { APP_URL: 'https://mail.eumail.test' } });
});
afterAll(() => app.close());

let org: { organizationId: string; apiKey: string };
beforeEach(async () => {
  await app.reset();
  org = await reviewedSendingOrg(app);
  for (const body of [{ key: 'plan', type: 'string' }, { key: 'seats', type: 'number' }, { key: 'renews', type: 'date' }]) {
    expect((await call('POST', '/contact-properties', body)).status).toBe(201);
  }
});

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => app.request(method, `/api${path}`, { key: org.apiKey, body });
const contact = (email: string, properties: Record<string, unknown>) => call('POST', '/contacts', { email, properties });
const membersOf = async (segmentId: string) =>
  (await app.runtime.deps.db.select({ email: contacts.email, subscribed: audienceMemberships.subscribed }).from(audienceMemberships).innerJoin(contacts, eq(contacts.id, audienceMemberships.contactId)).where(eq(audienceMemberships.audienceId, segmentId)))
    .map((m) => `${m.email}${m.subscribed ? '' : ' (unsubscribed)'}`)
    .sort();

describe('a segment defined by rules', () => {
  it('holds the contacts its property rules match, counts them live, and is evaluated again when changed', async () => {
    await contact('ada@example.net', { plan: 'pro', seats: 12, renews: '2027-03-01' });
    await contact('bob@example.net', { plan: 'pro', seats: 2 });
    await contact('cy@example.net', { plan: 'free' });
    const created = await call('POST', '/segments', {
      name: 'Big pro accounts',
      rules: { match: 'all', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }, { type: 'property', key: 'seats', operator: 'greater_than', value: 5 }] },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ contactCount: 1, matchingNow: 1, rules: { match: 'all' }, rulesEvaluatedAt: app.clock.now().toISOString() });
    expect(await membersOf(created.body.id)).toEqual(['ada@example.net']);
    // A contact that comes to match counts live at once, and joins at the next evaluation.
    await call('PATCH', '/contacts/bob%40example.net', { properties: { seats: 40 } });
    expect((await call('GET', `/segments/${created.body.id}`)).body).toMatchObject({ contactCount: 1, matchingNow: 2 });
    const any = await call('PATCH', `/segments/${created.body.id}`, {
      rules: { match: 'any', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'free' }, { type: 'property', key: 'renews', operator: 'exists' }] },
    });
    expect(any.body).toMatchObject({ contactCount: 2, matchingNow: 2 });
    expect(await membersOf(created.body.id)).toEqual(['ada@example.net', 'cy@example.net']);
    // A contact unsubscribed from everything is never a member.
    await call('PATCH', '/contacts/cy%40example.net', { unsubscribed: true });
    expect((await call('GET', `/segments/${created.body.id}`)).body.matchingNow).toBe(1);
  });

  it('matches on engagement within a window that ends now', async () => {
    await contact('ada@example.net', {});
    await contact('bob@example.net', {});
    await app.runtime.deps.db.update(contacts).set({ lastClickedAt: app.clock.now() }).where(eq(contacts.email, 'ada@example.net'));
    const active = (await call('POST', '/segments', { name: 'Active', rules: { conditions: [{ type: 'engagement', activity: 'opened_or_clicked', within_days: 30 }] } })).body;
    const inactive = (await call('POST', '/segments', { name: 'Inactive', rules: { conditions: [{ type: 'engagement', activity: 'opened_or_clicked', within_days: 30, negate: true }] } })).body;
    expect([active.matchingNow, inactive.matchingNow]).toEqual([1, 1]);
    app.clock.advance(31 * DAY_MS);
    expect((await call('GET', `/segments/${active.id}`)).body.matchingNow).toBe(0);
    expect((await call('GET', `/segments/${inactive.id}`)).body.matchingNow).toBe(2);
    const list = (await call('POST', '/segments', { name: 'Newsletter' })).body;
    const listed = new Map(((await call('GET', '/segments')).body.data as Array<{ id: string; matchingNow: number | null }>).map((segment) => [segment.id, segment.matchingNow]));
    expect([listed.get(active.id), listed.get(inactive.id), listed.get(list.id)]).toEqual([0, 2, null]);
  });

  it('refuses rules that do not fit the properties, and hand-made changes of its members', async () => {
    const refusals: Array<[unknown, string]> = [
      [{ conditions: [{ type: 'property', key: 'colour', operator: 'equals', value: 'red' }] }, 'rules.conditions.0.key: no contact property has the key "colour"'],
      [{ conditions: [{ type: 'property', key: 'plan', operator: 'greater_than', value: 'a' }] }, 'rules.conditions.0.operator: greater_than compares numbers and dates; "plan" is a string'],
      [{ conditions: [{ type: 'property', key: 'seats', operator: 'equals', value: 'ten' }] }, 'rules.conditions.0.value: must be a number'],
      [{ conditions: [{ type: 'property', key: 'seats', operator: 'equals' }] }, 'rules.conditions.0.value: is required for equals'],
    ];
    for (const [rules, error] of refusals) expect((await call('POST', '/segments', { name: 'Bad', rules })).body).toEqual({ error, code: 'VALIDATION_ERROR' });
    expect((await call('POST', '/segments', { name: 'Bad', rules: { conditions: [] } })).body.code).toBe('VALIDATION_ERROR');
    const ruled = (await call('POST', '/segments', { name: 'Pro', rules: { conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }] } })).body;
    const added = await call('POST', `/audiences/${ruled.id}/contacts`, { email: 'ada@example.net' });
    expect(added.body).toEqual({ error: 'The segment "Pro" takes its members from its rules: change the rules instead', code: 'CONFLICT' });
    const id = (await contact('ada@example.net', { plan: 'free' })).body.id;
    expect((await call('POST', `/contacts/${id}/segments/${ruled.id}`)).status).toBe(409);
    const list = (await call('POST', '/segments', { name: 'List' })).body;
    expect((await call('PATCH', `/segments/${list.id}`, { rules: { conditions: [{ type: 'property', key: 'plan', operator: 'exists' }] } })).status).toBe(409);
    // Deleting a rule segment leaves its contacts: they exist without it.
    await call('PATCH', `/contacts/${id}`, { properties: { plan: 'pro' } });
    await call('PATCH', `/segments/${ruled.id}`, { name: 'Pro accounts' });
    expect((await call('DELETE', `/segments/${ruled.id}`)).status).toBe(200);
    expect((await call('GET', `/contacts/${id}`)).status).toBe(200);
  });

  it('is evaluated when a broadcast to it is handed off, keeping the opt-outs of its members', async () => {
    await contact('ada@example.net', { plan: 'pro' });
    await contact('bob@example.net', { plan: 'pro' });
    const segment = (await call('POST', '/segments', { name: 'Pro', rules: { conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }] } })).body;
    // Bob leaves this segment's mail; Cy comes to match after the segment was made.
    const bob = (await call('GET', '/contacts/bob%40example.net')).body.id;
    await call('PATCH', `/audiences/${segment.id}/contacts/${bob}`, { subscribed: false });
    await call('PATCH', '/contacts/bob%40example.net', { properties: { plan: 'free' } });
    await contact('cy@example.net', { plan: 'pro' });
    const broadcast = await call('POST', '/broadcasts', { segment_id: segment.id, from: 'Acme <news@acme.example.com>', subject: 'News', html: '<p>Hi <a href="{{ unsubscribe_url }}">unsubscribe</a></p>' });
    expect(broadcast.status, broadcast.text).toBe(201);
    expect((await call('POST', `/broadcasts/${broadcast.body.id}/send`)).body.counts.recipients).toBe(2);
    while ((await sweepBroadcasts(app.runtime.deps)).outcomes.more);
    const sent = await app.runtime.deps.db.select({ to: emails.to }).from(emails).where(eq(emails.broadcastId, broadcast.body.id));
    expect(sent.map((row) => row.to[0]).sort()).toEqual(['ada@example.net', 'cy@example.net']);
    // Bob no longer matches, and his opt-out is kept, not forgotten.
    expect(await membersOf(segment.id)).toEqual(['ada@example.net', 'bob@example.net (unsubscribed)', 'cy@example.net']);
  });
});
