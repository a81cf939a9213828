import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, organizations } from '@/db/schema';
import { BULK_RUN_GAP_MS } from '@/server/services/audit/bulk';
import { startTestApp, type TestApp } from './support/app';
import { dashboardCall, signUpPerson, type DashboardPerson } from './support/dashboard-session';
import { sendingOrg } from './support/sending-org';

// Every change a person or a key makes to the organization's resources is in its audit log
// (docs/audit-log.md): one entry per change, one per bulk operation, none for a refused change.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

const deps = () => app.runtime.deps;
const rowsOf = (organizationId: string) => deps().db.select().from(auditEvents).where(eq(auditEvents.organizationId, organizationId)).orderBy(asc(auditEvents.occurredAt), asc(auditEvents.id));

/** A REST call that must succeed; the clock moves a second first, so every change has its own time. */
const apiCall = (key: string) => async (method: string, path: string, body?: unknown) => {
  app.clock.advance(1_000);
  const response = await app.request(method, `/api${path}`, { key, body });
  expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
  return response.body;
};

/** A dashboard call that must succeed. */
const personCall = (person: DashboardPerson) => async (kind: 'query' | 'mutation', path: string, input: unknown = {}) => {
  app.clock.advance(1_000);
  const response = await dashboardCall(app, person.cookie, kind, path, input);
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
  return response.data;
};

describe('the audit log records each change made with an API key', () => {
  it('domains, audiences, contacts, suppressions, templates and broadcasts: one entry per change, the key as the actor', async () => {
    const { organizationId, apiKey, domainId } = await sendingOrg(app, { plan: '10k' });
    const call = apiCall(apiKey);
    const other = await app.createOrg({ name: 'Other' });

    const audience = await call('POST', '/audiences', { name: 'Newsletter' });
    const ada = await call('POST', `/audiences/${audience.id}/contacts`, { email: 'Ada@Example.net', name: 'Ada' });
    await call('POST', `/audiences/${audience.id}/contacts`, { email: 'ada@example.net', name: 'Ada Lovelace' });
    await call('PATCH', `/audiences/${audience.id}/contacts/${ada.id}`, { subscribed: false });
    // Nothing changes: nothing is recorded.
    await call('PATCH', `/audiences/${audience.id}/contacts/${ada.id}`, { subscribed: false });
    const batch = await call('POST', `/audiences/${audience.id}/contacts/batch`, { contacts: [{ email: 'grace@example.net' }, { email: 'alan@example.net' }, { email: 'not an address' }] });
    expect(batch.errors).toHaveLength(1);
    const { data: listed } = await call('GET', `/audiences/${audience.id}/contacts?search=a`);
    const grace = listed.find((contact: { email: string }) => contact.email === 'grace@example.net');
    const alan = listed.find((contact: { email: string }) => contact.email === 'alan@example.net');
    await call('POST', `/audiences/${audience.id}/contacts/batch-delete`, { ids: [grace.id, alan.id] });
    await call('DELETE', `/audiences/${audience.id}/contacts/${ada.id}`);

    await call('POST', '/suppressions', { email: 'bounced@example.org' });
    // Already on the list: no change.
    await call('POST', '/suppressions', { email: 'BOUNCED@example.org' });
    await call('POST', '/suppressions/batch', { emails: ['one@example.org', 'two@example.org', 'bounced@example.org'], reason: 'unsubscribe' });
    await call('DELETE', `/suppressions/${encodeURIComponent('one@example.org')}`);

    const template = await call('POST', '/templates', { name: 'Welcome', subject: 'Hi {{ name }}', html: '<p>Hello</p>' });
    await call('PATCH', `/templates/${template.id}`, { name: 'Welcome mail', subject: 'Hello {{ name }}' });
    await call('PATCH', `/templates/${template.id}`, { subject: 'Hello {{ name }}' });
    await call('DELETE', `/templates/${template.id}`);

    const draft = await call('POST', '/broadcasts', { audience_id: audience.id, from: 'News <news@acme.example.com>', subject: 'November', html: '<p>Hi</p>', name: 'November' });
    await call('PATCH', `/broadcasts/${draft.id}`, { subject: 'November news' });
    const at = new Date(app.clock.now().getTime() + 3_600_000).toISOString();
    await call('PATCH', `/broadcasts/${draft.id}`, { scheduled_at: at });
    await call('POST', `/broadcasts/${draft.id}/cancel`);
    await call('DELETE', `/broadcasts/${draft.id}`);
    await call('POST', `/audiences/${audience.id}/contacts`, { email: 'grace@example.net' });
    const sent = await call('POST', '/broadcasts', { audience_id: audience.id, from: 'News <news@acme.example.com>', subject: 'December', html: '<p>Hi</p>', name: 'December' });
    await call('POST', `/broadcasts/${sent.id}/send`, {});
    const later = await call('POST', '/broadcasts', { audience_id: audience.id, from: 'News <news@acme.example.com>', subject: 'January', html: '<p>Hi</p>', name: 'January' });
    await call('POST', `/broadcasts/${later.id}/send`, { scheduled_at: at });

    const spare = await call('POST', '/audiences', { name: 'Spare' });
    await call('DELETE', `/audiences/${spare.id}`);

    const rows = await rowsOf(organizationId);
    const [keyCreated, ...changes] = rows;
    expect(keyCreated).toMatchObject({ action: 'api_key.created', actorKind: 'operator' });
    expect(changes.map((row) => [row.action, row.targetType, row.targetLabel, row.details])).toEqual([
      ['domain.created', 'domain', 'acme.example.com', { openTracking: false, clickTracking: false }],
      ['audience.created', 'audience', 'Newsletter', {}],
      ['contact.created', 'contact', 'ada@example.net', { audienceId: audience.id, audience: 'Newsletter', subscribed: true }],
      ['contact.updated', 'contact', 'ada@example.net', { audienceId: audience.id, audience: 'Newsletter', subscribed: true }],
      ['contact.updated', 'contact', 'ada@example.net', { audienceId: audience.id, audience: 'Newsletter', fields: ['subscribed'], subscribed: false }],
      ['contact.imported', 'audience', 'Newsletter', { created: 2, updated: 0, batches: 1 }],
      ['contact.batch_deleted', 'audience', 'Newsletter', { deleted: 2, batches: 1 }],
      ['contact.deleted', 'contact', 'ada@example.net', { audienceId: audience.id, audience: 'Newsletter' }],
      ['suppression.added', 'suppression', 'bounced@example.org', { reason: 'manual' }],
      ['suppression.imported', 'suppression', 'Suppression list', { reason: 'unsubscribe', added: 2, batches: 1 }],
      ['suppression.removed', 'suppression', 'one@example.org', { reason: 'unsubscribe' }],
      ['template.created', 'template', 'Welcome', {}],
      ['template.updated', 'template', 'Welcome mail', { fields: ['name', 'subject'], name: { from: 'Welcome', to: 'Welcome mail' } }],
      ['template.deleted', 'template', 'Welcome mail', {}],
      ['broadcast.created', 'broadcast', 'November', {}],
      ['broadcast.updated', 'broadcast', 'November', { fields: ['subject'] }],
      ['broadcast.updated', 'broadcast', 'November', { fields: [], scheduledAt: at }],
      ['broadcast.cancelled', 'broadcast', 'November', { from: 'scheduled', emailsWithdrawn: 0 }],
      ['broadcast.deleted', 'broadcast', 'November', {}],
      ['contact.created', 'contact', 'grace@example.net', { audienceId: audience.id, audience: 'Newsletter', subscribed: true }],
      ['broadcast.created', 'broadcast', 'December', {}],
      ['broadcast.sent', 'broadcast', 'December', { audienceId: audience.id }],
      ['broadcast.created', 'broadcast', 'January', {}],
      ['broadcast.scheduled', 'broadcast', 'January', { scheduledAt: at }],
      ['audience.created', 'audience', 'Spare', {}],
      ['audience.deleted', 'audience', 'Spare', { contacts: 0 }],
    ]);
    expect(changes.find((row) => row.action === 'domain.created')!.targetId).toBe(domainId);
    for (const row of changes) {
      expect(row).toMatchObject({ organizationId, actorKind: 'api_key', actorId: keyCreated!.targetId, actorLabel: keyCreated!.targetLabel, clientAddress: '127.0.0.1' });
    }
    // The other organization's log holds its own key's creation and nothing of these.
    expect((await rowsOf(other.organizationId)).map((row) => row.action)).toEqual(['api_key.created']);
  });

  it('nothing for a change that was refused or found nothing', async () => {
    const { organizationId, apiKey } = await sendingOrg(app, { plan: '10k' });
    const other = await app.createOrg({ name: 'Other' });
    const before = (await rowsOf(organizationId)).length;
    const refused = async (method: string, path: string, body: unknown, status: number, key = apiKey) => {
      const response = await app.request(method, `/api${path}`, { key, body });
      expect(response.status, `${method} ${path}: ${response.text}`).toBe(status);
    };
    const foreignAudience = (await app.request('POST', '/api/audiences', { key: other.apiKey, body: { name: 'Theirs' } })).body;
    await refused('POST', '/templates', { name: 'Broken', subject: 'Hi', html: '{% if x %}' }, 400);
    await refused('POST', `/audiences/${foreignAudience.id}/contacts`, { email: 'ada@example.net' }, 404);
    await refused('POST', `/audiences/${foreignAudience.id}/contacts/batch`, { contacts: [{ email: 'ada@example.net' }] }, 404);
    await refused('DELETE', `/audiences/${foreignAudience.id}`, undefined, 404);
    await refused('DELETE', `/suppressions/${encodeURIComponent('nobody@example.org')}`, undefined, 404);
    const audience = (await app.request('POST', '/api/audiences', { key: apiKey, body: { name: 'Mine' } })).body;
    await app.request('POST', `/api/audiences/${audience.id}/contacts`, { key: apiKey, body: { email: 'ada@example.net' } });
    const broadcast = (await app.request('POST', '/api/broadcasts', { key: apiKey, body: { audience_id: audience.id, from: 'n@acme.example.com', subject: 'S', html: '<p>x</p>' } })).body;
    await app.request('POST', `/api/broadcasts/${broadcast.id}/send`, { key: apiKey, body: {} });
    await refused('DELETE', `/broadcasts/${broadcast.id}`, undefined, 409);
    await refused('DELETE', `/audiences/${audience.id}`, undefined, 409);
    // A batch that only repeats what is there changes nothing.
    await app.request('POST', `/api/audiences/${audience.id}/contacts/batch`, { key: apiKey, body: { contacts: [{ email: 'ada@example.net' }] } });
    await app.request('POST', '/api/suppressions/batch', { key: apiKey, body: { emails: ['not an address'] } });
    const actions = (await rowsOf(organizationId)).slice(before).map((row) => row.action);
    expect(actions).toEqual(['audience.created', 'contact.created', 'broadcast.created', 'broadcast.sent']);
  });
});

describe('bulk operations are one entry each', () => {
  it('an import sent as the dashboard sends a file (1,000 rows a request, one after the other) is one entry; another actor or a later import is another', async () => {
    const person = await signUpPerson(app, 'ada@audit.test');
    const call = personCall(person);
    // Room for the file's contacts (the Free plan holds 1,000).
    await deps().db.update(organizations).set({ plan: '10k' }).where(eq(organizations.id, person.organizationId));
    const audience = await call('mutation', 'audiences.create', { name: 'Customers' });
    const rows = (from: number, count: number) => Array.from({ length: count }, (_, index) => ({ email: `person${from + index}@example.net` }));
    await call('mutation', 'audiences.batchContacts', { id: audience.id, contacts: rows(0, 1_000) });
    await call('mutation', 'audiences.batchContacts', { id: audience.id, contacts: rows(1_000, 1_000) });
    // The last batch repeats 100 addresses with a name: they are updates.
    await call('mutation', 'audiences.batchContacts', { id: audience.id, contacts: [...rows(2_000, 400), ...rows(0, 100).map((row) => ({ ...row, name: 'Named' }))] });

    // A key importing into the same audience meanwhile is another actor: its own entry.
    const key = await call('mutation', 'apiKeys.create', { name: 'Sync job' });
    const byKey = await app.request('POST', `/api/audiences/${audience.id}/contacts/batch`, { key: key.key, body: { contacts: rows(3_000, 5) } });
    expect(byKey.status).toBe(200);

    // Another import, well after the first ended.
    app.clock.advance(BULK_RUN_GAP_MS + 1);
    await call('mutation', 'audiences.batchContacts', { id: audience.id, contacts: rows(5_000, 10) });

    const imports = (await rowsOf(person.organizationId)).filter((row) => row.action === 'contact.imported');
    expect(imports.map((row) => [row.actorKind, row.actorId, row.targetId, row.details])).toEqual([
      ['user', person.userId, audience.id, { created: 2_400, updated: 100, batches: 3 }],
      ['api_key', key.id, audience.id, { created: 5, updated: 0, batches: 1 }],
      ['user', person.userId, audience.id, { created: 10, updated: 0, batches: 1 }],
    ]);
    const { data } = await call('query', 'auditLog.list', { group: 'contact' });
    expect(data.map((row: { action: string; details: { created: number } }) => [row.action, row.details.created])).toEqual([
      ['contact.imported', 10],
      ['contact.imported', 5],
      // The run's time is its last batch's, which came before the key's.
      ['contact.imported', 2_400],
    ]);
  });
});

describe('the dashboard', () => {
  it("records a person's changes as theirs, shows them to the owner, and to no other organization", async () => {
    const ada = await signUpPerson(app, 'ada@audit.test');
    const bob = await signUpPerson(app, 'bob@audit.test');
    const call = personCall(ada);
    const key = await call('mutation', 'apiKeys.create', { name: 'Backend' });
    await call('mutation', 'apiKeys.rename', { id: key.id, name: 'Production backend' });
    const audience = await call('mutation', 'audiences.create', { name: 'Newsletter' });
    const contact = await call('mutation', 'audiences.createContact', { id: audience.id, email: 'grace@example.net' });
    await call('mutation', 'audiences.updateContact', { id: audience.id, contactId: contact.id, name: 'Grace Hopper' });
    await call('mutation', 'suppressions.create', { email: 'no@example.org' });
    await call('mutation', 'templates.create', { name: 'Receipt', subject: 'Your receipt', text: 'Thanks' });

    const { data } = await call('query', 'auditLog.list', {});
    expect(data.map((row: { action: string; target: { label: string } }) => [row.action, row.target.label])).toEqual([
      ['template.created', 'Receipt'],
      ['suppression.added', 'no@example.org'],
      ['contact.updated', 'grace@example.net'],
      ['contact.created', 'grace@example.net'],
      ['audience.created', 'Newsletter'],
      ['api_key.renamed', `Production backend (${key.tokenStart}…)`],
      ['api_key.created', `Backend (${key.tokenStart}…)`],
      ['user.signed_in', 'ada@audit.test'],
    ]);
    for (const row of data) expect(row.actor).toEqual({ kind: 'user', id: ada.userId, label: 'ada@audit.test' });
    expect(data[2].details).toMatchObject({ fields: ['name'] });
    expect(data[5].details).toEqual({ name: { from: 'Backend', to: 'Production backend' } });

    // Bob's organization sees its own sign-up only, whatever the filter.
    const bobs = await personCall(bob)('query', 'auditLog.list', {});
    expect(bobs.data.map((row: { action: string }) => row.action)).toEqual(['user.signed_in']);
    for (const group of ['api_key', 'audience', 'contact', 'suppression', 'template']) {
      expect((await personCall(bob)('query', 'auditLog.list', { group })).data).toEqual([]);
    }
  });
});

describe('erasing an address', () => {
  it('replaces the address in the labels of the entries about it with its hash', async () => {
    const ada = await signUpPerson(app, 'ada@audit.test');
    const call = personCall(ada);
    const audience = await call('mutation', 'audiences.create', { name: 'Newsletter' });
    const contact = await call('mutation', 'audiences.createContact', { id: audience.id, email: 'grace@example.net' });
    await call('mutation', 'audiences.deleteContact', { id: audience.id, contactId: contact.id });
    await call('mutation', 'suppressions.create', { email: 'grace@example.net' });
    await call('mutation', 'suppressions.create', { email: 'kept@example.net' });

    const erased = await call('mutation', 'privacy.eraseRecipientData', { email: 'grace@example.net' });
    expect(erased.keptSuppression).toMatchObject({ reason: 'manual' });
    const rows = await rowsOf(ada.organizationId);
    expect(JSON.stringify(rows)).not.toContain('grace@example.net');
    const [erasure] = rows.filter((row) => row.action === 'recipient.erased');
    expect(erasure!.details).toMatchObject({ contacts: 0, suppressions: 0, auditLabels: 3, suppressionKept: 'manual' });
    expect(rows.filter((row) => row.targetType === 'contact' || row.targetType === 'suppression').map((row) => row.targetLabel)).toEqual([
      erasure!.targetLabel,
      erasure!.targetLabel,
      erasure!.targetLabel,
      'kept@example.net',
    ]);
  });

  it('erases an address that only the audit log still names (200, not 404)', async () => {
    const ada = await signUpPerson(app, 'ada@audit.test');
    const call = personCall(ada);
    // Suppressed by mistake and taken off the list again: the audit log names it, and the event log
    // (the consent ledger's two contact.consent_changed events); the ledger itself keeps its entries by hash.
    const entry = await call('mutation', 'suppressions.create', { email: 'gone@example.net' });
    await call('mutation', 'suppressions.delete', { id: entry.id });

    const erased = await call('mutation', 'privacy.eraseRecipientData', { email: 'gone@example.net' });
    expect(erased).toMatchObject({ erased: { emails: 0, events: 2, contacts: 0, suppressions: 0 }, keptSuppression: null, consentEntriesHashed: 2 });
    const rows = await rowsOf(ada.organizationId);
    expect(JSON.stringify(rows)).not.toContain('gone@example.net');
    expect(rows.at(-1)).toMatchObject({ action: 'recipient.erased', details: { auditLabels: 2 } });
    // Asked again, nothing is held any more.
    expect((await dashboardCall(app, ada.cookie, 'mutation', 'privacy.eraseRecipientData', { email: 'gone@example.net' })).status).toBe(404);
  });
});
