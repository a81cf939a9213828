import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditEvents, automationRuns, consentEntries, contacts, organizations, receivedEvents } from '@/db/schema';
import { PLANS } from '@/server/services/plans/plan-table';
import { sweepAutomationRuns } from '@/server/services/automations';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';

// A custom-event trigger's `create_contact` (docs/automations.md, "Creating the contact"): an event
// sent for an address that is no contact creates it, live, and starts the runs; a test key's
// creates nothing and says it would have.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

let org: { organizationId: string; apiKey: string };
let testKey: string;
beforeEach(async () => {
  await app.reset();
  org = await app.createOrg({ plan: '10k' });
  testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
});

const deps = () => app.runtime.deps;
const call = (method: string, path: string, body?: unknown, key = org.apiKey) => app.request(method, `/api${path}`, { key, body });
const sendEvent = (email: string, key = org.apiKey) => call('POST', '/events/send', { event: 'user.signed_up', email, payload: { plan: 'team' } }, key);
const contactOf = async (email: string) => (await deps().db.select().from(contacts).where(and(eq(contacts.organizationId, org.organizationId), eq(contacts.email, email))))[0] ?? null;

async function automation(name: string, trigger: Record<string, unknown>, status = 'enabled'): Promise<string> {
  const created = await call('POST', '/automations', {
    name,
    status,
    steps: [
      { key: 'start', type: 'trigger', config: { event_name: 'user.signed_up', ...trigger } },
      { key: 'mark', type: 'contact_update', config: { last_name: name } },
    ],
    connections: [{ from: 'start', to: 'mark' }],
  });
  expect(created.status, created.text).toBe(201);
  return created.body.id;
}

describe('create_contact on a custom-event trigger', () => {
  it('creates the contact of an unknown address (subscribed, in no segment, audited, in the ledger) and starts every run the event triggers', async () => {
    const creating = await automation('Creating', { create_contact: true });
    const other = await automation('Other', {});
    const sent = await sendEvent('New.Person@Example.net');
    expect(sent.status, sent.text).toBe(202);
    expect(sent.body).toEqual({ id: expect.any(String), event: 'user.signed_up', contactId: expect.any(String), runsStarted: 2, waitsEnded: 0, contactCreation: 'created' });

    const contact = await contactOf('new.person@example.net');
    expect(contact).toMatchObject({ id: sent.body.contactId, unsubscribed: false, pendingSince: null });
    const read = await call('GET', `/contacts/${sent.body.contactId}/segments`);
    expect(read.body.data).toEqual([]);
    const audited = await deps().db.select({ action: auditEvents.action }).from(auditEvents).where(and(eq(auditEvents.organizationId, org.organizationId), eq(auditEvents.targetId, contact!.id)));
    expect(audited.map((row) => row.action)).toContain('contact.created');
    expect(await deps().db.select({ id: consentEntries.id }).from(consentEntries).where(eq(consentEntries.contactId, contact!.id))).not.toEqual([]);

    await sweepAutomationRuns(deps());
    const runs = await deps().db.select({ automationId: automationRuns.automationId, status: automationRuns.status, test: automationRuns.test }).from(automationRuns);
    expect(runs.sort((a, b) => a.automationId.localeCompare(b.automationId))).toEqual(
      [
        { automationId: creating, status: 'completed', test: false },
        { automationId: other, status: 'completed', test: false },
      ].sort((a, b) => a.automationId.localeCompare(b.automationId)),
    );
    const [row] = await deps().db.select({ contactCreation: receivedEvents.contactCreation, contactId: receivedEvents.contactId }).from(receivedEvents).where(eq(receivedEvents.id, sent.body.id));
    expect(row).toEqual({ contactCreation: 'created', contactId: contact!.id });

    // The next event finds the contact: nothing is created again.
    const again = await sendEvent('new.person@example.net');
    expect(again.body).toMatchObject({ contactId: contact!.id, contactCreation: null, runsStarted: 2 });
  });

  it('two events at once for the same new address create one contact: the second finds it', async () => {
    await automation('Creating', { create_contact: true });
    const answers = await Promise.all([sendEvent('twice@example.net'), sendEvent('twice@example.net')]);
    for (const answer of answers) expect(answer.status, answer.text).toBe(202);
    expect(answers.map((answer) => answer.body.contactCreation).sort()).toEqual(['created', null].sort());
    const contact = await contactOf('twice@example.net');
    expect(answers.map((answer) => answer.body.contactId)).toEqual([contact!.id, contact!.id]);
    expect(answers.map((answer) => answer.body.runsStarted)).toEqual([1, 1]);
  });

  it('creates nothing without the option, with it false, or when the automation asking is disabled', async () => {
    await automation('Plain', {});
    await automation('Off', { create_contact: false });
    await automation('Disabled', { create_contact: true }, 'disabled');
    const sent = await sendEvent('nobody@example.net');
    expect(sent.status, sent.text).toBe(202);
    expect(sent.body).toMatchObject({ contactId: null, runsStarted: 0, contactCreation: null });
    expect(await contactOf('nobody@example.net')).toBeNull();
  });

  it("a test key's event creates no contact and starts nothing: the receipt and the kept event say it would have", async () => {
    await automation('Creating', { create_contact: true });
    const sent = await sendEvent('tester@example.net', testKey);
    expect(sent.status, sent.text).toBe(202);
    expect(sent.body).toMatchObject({ contactId: null, runsStarted: 0, contactCreation: 'skipped_test_mode' });
    expect(await contactOf('tester@example.net')).toBeNull();
    expect(await deps().db.select().from(automationRuns)).toEqual([]);
    const [row] = await deps().db.select({ contactCreation: receivedEvents.contactCreation, test: receivedEvents.test }).from(receivedEvents).where(eq(receivedEvents.id, sent.body.id));
    expect(row).toEqual({ contactCreation: 'skipped_test_mode', test: true });
  });

  it("past the plan's contacts, the send is refused with the cap's error and nothing is kept", async () => {
    await automation('Creating', { create_contact: true });
    await deps().db.update(organizations).set({ contactCount: PLANS['10k'].contacts }).where(eq(organizations.id, org.organizationId));
    const refused = await sendEvent('one.too.many@example.net');
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.code).toBe('PLAN_LIMIT_EXCEEDED');
    expect(await contactOf('one.too.many@example.net')).toBeNull();
    expect(await deps().db.select().from(receivedEvents)).toEqual([]);
  });

  it('refuses a create_contact that is not a boolean, and on one of this service’s own triggers (400 naming the step)', async () => {
    const bad = await call('POST', '/automations', {
      name: 'Bad',
      steps: [{ key: 'start', type: 'trigger', config: { event_name: 'user.signed_up', create_contact: 'yes' } }, { key: 'mark', type: 'contact_update', config: { last_name: 'x' } }],
      connections: [{ from: 'start', to: 'mark' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/"start".*create_contact/);
    const system = await call('POST', '/automations', {
      name: 'System',
      steps: [{ key: 'start', type: 'trigger', config: { event_name: 'contact.created', create_contact: true } }, { key: 'mark', type: 'contact_update', config: { last_name: 'x' } }],
      connections: [{ from: 'start', to: 'mark' }],
    });
    expect(system.status).toBe(400);
    expect(system.body.error).toMatch(/"start"/);
  });

  it('is in the OpenAPI document of the trigger config', async () => {
    const document = await app.request('GET', '/docs/openapi.json');
    expect(document.status).toBe(200);
    const text = JSON.stringify(document.body);
    // In the custom-event trigger's config (not in this service's own triggers), with what it does.
    expect(/"create_contact":\{[^}]*"type":"boolean"/.test(text)).toBe(true);
    expect(/"create_contact":\{[^}]*creates the contact/.test(text)).toBe(true);
  });
});
