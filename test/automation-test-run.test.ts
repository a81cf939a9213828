import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { automationEmails, automationRuns, automationRunSteps, emails } from '@/db/schema';
import { closeOutboundConnections } from '@/server/net/outbound';
import { appRouter } from '@/server/routers';
import { sweepAutomationRuns } from '@/server/services/automations';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import type { Principal } from '@/server/services/shared/principal';
import { createCallerFactory } from '@/server/trpc/init';
import type { Context } from '@/server/trpc/context';
import { newId } from '@/server/ids';
import type { Role } from '@/server/vocabulary/roles';
import { startTestApp, type TestApp } from './support/app';
import { reviewedSendingOrg } from './support/sending-org';
import { startMxServer, type MxServer } from './support/smtp-mx';

// The dashboard's "Test run" (docs/automations.md, "Dashboard"): one test run of the current version
// for one contact, whatever the trigger, re-entry and status; its email simulated, never delivered.

describe('an automation test run (real HTTP and SMTP, the test clock)', () => {
  let app: TestApp;
  let mx: MxServer;
  let org: { organizationId: string; apiKey: string };

  beforeAll(async () => {
    mx = await startMxServer();
    app = await startTestApp({ env: { SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example' } });
  });
  afterAll(async () => {
    await closeOutboundConnections();
    await app.close();
    await mx.close();
  });
  beforeEach(async () => {
    await app.reset();
    mx.messages.length = 0;
    org = await reviewedSendingOrg(app);
    app.dns.a('mx.example.net', '127.0.0.1');
  });

  const deps = () => app.runtime.deps;
  const call = (method: string, path: string, body?: unknown, key = org.apiKey) => app.request(method, `/api${path}`, { key, body });
  /** The automations procedures as a signed-in person of `organizationId` calls them, in `mode` (the dashboard's switch). */
  const dashboard = (organizationId: string, options: { role?: Role; mode?: 'live' | 'test'; channel?: 'dashboard' | 'api' } = {}) => {
    const principal: Principal = { organizationId, permission: 'full_access', mode: options.mode ?? 'live', keyId: null, domainId: null, userId: newId(), role: options.role ?? 'marketer', plan: '10k', rateLimitOverride: null };
    const ctx: Context = { deps: deps(), requestId: 'test-run', channel: options.channel ?? 'dashboard', authenticate: async () => ({ principal, rateLimit: null }), setHeader: () => {}, header: () => undefined };
    return createCallerFactory(appRouter)(ctx);
  };

  async function welcome(): Promise<string> {
    const template = await call('POST', '/templates', { name: 'Welcome', subject: 'Welcome', html: '<p>Hello {{ contact.first_name | default: "friend" }}</p>', from: 'Acme <hello@acme.example.com>' });
    expect(template.status, template.text).toBe(201);
    const created = await call('POST', '/automations', {
      name: 'Welcome',
      // Disabled, on an event nobody sends, once per contact: a test run ignores all three.
      steps: [
        { key: 'start', type: 'trigger', config: { event_name: 'user.created', re_entry: { type: 'once' } } },
        { key: 'welcome', type: 'send_email', config: { template: { id: template.body.id } } },
      ],
      connections: [{ from: 'start', to: 'welcome' }],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.status).toBe('disabled');
    return created.body.id;
  }
  async function contact(email: string): Promise<string> {
    const created = await call('POST', '/contacts', { email, first_name: 'Ada' });
    expect(created.status, created.text).toBe(201);
    return created.body.id;
  }
  const later = async () => {
    await sweepAutomationRuns(deps());
    await sweepEmailDispatch(deps());
  };

  it('starts one test run of a disabled automation for a contact; its email is simulated, and only Test mode reads it', async () => {
    const id = await welcome();
    const contactId = await contact('ada@example.net');
    const started = await dashboard(org.organizationId).automations.testRun({ id, contact: contactId });
    expect(started).toMatchObject({ automationId: id, version: 1, contactId, contactEmail: 'ada@example.net' });
    // Again by address, past the trigger's `once`: a test is asked for, not an event.
    const again = await dashboard(org.organizationId).automations.testRun({ id, contact: 'ADA@example.net' });
    expect(again.runId).not.toBe(started.runId);

    await later();
    const runs = await deps().db.select().from(automationRuns).where(eq(automationRuns.automationId, id)).orderBy(asc(automationRuns.createdAt));
    expect(runs.map((run) => [run.test, run.status, run.stepKey])).toEqual([
      [true, 'completed', 'welcome'],
      [true, 'completed', 'welcome'],
    ]);
    const steps = await deps().db.select({ key: automationRunSteps.key, status: automationRunSteps.status }).from(automationRunSteps).where(eq(automationRunSteps.runId, started.runId)).orderBy(asc(automationRunSteps.seq));
    expect(steps).toEqual([
      { key: 'start', status: 'completed' },
      { key: 'welcome', status: 'completed' },
    ]);
    const [record] = await deps().db.select().from(automationEmails).where(eq(automationEmails.runId, started.runId));
    expect(record).toMatchObject({ test: true, stepKey: 'welcome', contactId });
    const [email] = await deps().db.select({ mode: emails.mode }).from(emails).where(eq(emails.id, record!.emailId));
    expect(email!.mode).toBe('test');
    // Simulated: nothing reached the recipient's MX.
    await later();
    expect(mx.messages).toEqual([]);

    // A test run is read in Test mode, not in Live.
    expect((await dashboard(org.organizationId, { mode: 'test' }).automationRuns.list({ id, limit: 20 })).data.map((run) => run.id).sort()).toEqual([started.runId, again.runId].sort());
    expect((await dashboard(org.organizationId).automationRuns.list({ id, limit: 20 })).data).toEqual([]);
    expect((await dashboard(org.organizationId).automations.get({ id })).status).toBe('disabled');
  });

  it("refuses another organization's automation or contact, an unknown contact (404), the roles that do not write automations, and API keys", async () => {
    const id = await welcome();
    const contactId = await contact('ada@example.net');
    const other = await app.createOrg({ plan: '10k' });
    const theirs = await call('POST', '/contacts', { email: 'bob@example.net' }, other.apiKey);
    expect(theirs.status, theirs.text).toBe(201);

    await expect(dashboard(other.organizationId).automations.testRun({ id, contact: theirs.body.id })).rejects.toThrow(/Automation not found/);
    await expect(dashboard(org.organizationId).automations.testRun({ id, contact: theirs.body.id })).rejects.toThrow(/Contact not found/);
    await expect(dashboard(org.organizationId).automations.testRun({ id, contact: 'bob@example.net' })).rejects.toThrow(/Contact not found/);
    await expect(dashboard(org.organizationId).automations.testRun({ id, contact: 'not-an-id' })).rejects.toThrow(/Contact not found/);
    // A deleted contact is gone.
    expect((await call('DELETE', `/contacts/${contactId}`)).status).toBe(200);
    await expect(dashboard(org.organizationId).automations.testRun({ id, contact: contactId })).rejects.toThrow(/Contact not found/);
    // A deleted automation too.
    const kept = await contact('grace@example.net');
    expect((await call('DELETE', `/automations/${id}`)).status).toBe(200);
    await expect(dashboard(org.organizationId).automations.testRun({ id, contact: kept })).rejects.toThrow(/Automation not found/);

    const live = await welcome();
    await expect(dashboard(org.organizationId, { role: 'developer' }).automations.testRun({ id: live, contact: kept })).rejects.toThrow(/does not allow this/);
    await expect(dashboard(org.organizationId, { channel: 'api' }).automations.testRun({ id: live, contact: kept })).rejects.toThrow(/in the dashboard/);
    // Test mode may start one too: a test run writes no shared state.
    expect((await dashboard(org.organizationId, { mode: 'test' }).automations.testRun({ id: live, contact: kept })).contactId).toBe(kept);
    expect(await deps().db.select({ id: automationRuns.id }).from(automationRuns).where(eq(automationRuns.automationId, id))).toEqual([]);
  });
});
