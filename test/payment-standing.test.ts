import { describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { auditEvents, members, organizations } from '@/db/schema';
import { runAdminCommand } from '@/server/admin/commands';
import { ACTIVE_ORGANIZATION_COOKIE } from '@/server/auth/active-organization';
import { recordRenewalFailed, recordRenewalPaid, restrictUnpaidAccounts } from '@/server/services/billing/payment-standing';
import { DAY_MS } from '@/server/services/shared/time';
import { sweepSystemEmails } from '@/server/services/system-mail/queue';
import type { Role } from '@/server/vocabulary/roles';
import { startTestApp } from './support/app';
import { dashboardCall, signUpPerson, type DashboardPerson } from './support/dashboard-session';
import { sendingOrg } from './support/sending-org';
import { dashboardWithSystemMail } from './support/dashboard-with-mail';

// Issue 33, item 6: a renewal the payment provider could not collect. The owner and billing
// members are mailed (a loopback SMTP sink), sending goes on for BILLING_GRACE_DAYS (7 by
// default) under the test clock, then the account is restricted until paid; paying lifts only
// the restriction non-payment caused. The provider's reports reach these functions from its
// webhook; here they are called as that route calls them.

const world = dashboardWithSystemMail({ now: '2026-11-03T09:00:00.000Z' });

const deps = () => world.app.runtime.deps;
const db = () => deps().db;
const INVOICE = { invoice: 'in_1QxR3n2eZvKYlo2C0a8b9c7d' };

async function memberOf(organizationId: string, role: Role, email: string): Promise<DashboardPerson> {
  const person = await signUpPerson(world.app, email);
  await db().insert(members).values({ id: crypto.randomUUID(), organizationId, userId: person.userId, role, createdAt: world.app.clock.now() });
  return { ...person, cookie: `${person.cookie}; ${ACTIVE_ORGANIZATION_COOKIE}=${organizationId}`, organizationId };
}

/** A paid account that sends live mail, with a billing member and a developer. */
async function payingAccount() {
  const org = await sendingOrg(world.app, { plan: '10k', ownerEmail: 'owner@acme.example.com' });
  const billing = await memberOf(org.organizationId, 'billing', 'accounts@acme.example.com');
  const developer = await memberOf(org.organizationId, 'developer', 'dev@acme.example.com');
  return { ...org, billing, developer };
}

const send = (apiKey: string) =>
  world.app.request('POST', '/api/emails', { key: apiKey, body: { from: 'Acme <shop@acme.example.com>', to: 'reader@example.net', subject: 'Your order', text: 'It is on its way.' } });

const standing = async (organizationId: string) => {
  const [row] = await db()
    .select({ status: organizations.status, cause: organizations.statusCause, failedAt: organizations.paymentFailedAt, graceUntil: organizations.paymentGraceUntil })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row!;
};

/** Who received a message with a subject matching, after the system mail has gone out. */
async function recipientsOf(subject: RegExp): Promise<string[]> {
  await sweepSystemEmails(deps());
  const to: string[] = [];
  for (const message of world.systemMail.messages) if (subject.test((await simpleParser(message.raw)).subject ?? '')) to.push(...message.to);
  return to.sort();
}

const billingActions = async (organizationId: string) =>
  (await db().select({ action: auditEvents.action, actor: auditEvents.actorKind }).from(auditEvents).where(eq(auditEvents.organizationId, organizationId)).orderBy(asc(auditEvents.occurredAt)))
    .filter((row) => row.action.startsWith('billing.'))
    .map((row) => ({ action: row.action, actor: row.actor }));

describe('a failed renewal', () => {
  it('mails the owner and billing members once, and sending goes on through the grace period', async () => {
    const account = await payingAccount();
    expect(await recordRenewalFailed(deps(), account.organizationId, INVOICE)).toBe(true);
    // The provider retries the charge and reports each failure: the first one started the grace period.
    world.app.clock.advance(2 * DAY_MS);
    expect(await recordRenewalFailed(deps(), account.organizationId, INVOICE)).toBe(false);

    expect(await recipientsOf(/^Payment for .* failed/)).toEqual(['accounts@acme.example.com', 'owner@acme.example.com']);
    const row = await standing(account.organizationId);
    expect(row).toMatchObject({ status: 'active', cause: null });
    expect(row.graceUntil!.toISOString()).toBe('2026-11-10T09:00:00.000Z');
    expect((await send(account.apiKey)).status).toBe(200);
    expect(await billingActions(account.organizationId)).toEqual([{ action: 'billing.payment_failed', actor: 'billing' }]);

    const view = await dashboardCall(world.app, account.billing.cookie, 'query', 'organization.current');
    expect(view.data.payment).toEqual({ failedAt: '2026-11-03T09:00:00.000Z', graceUntil: '2026-11-10T09:00:00.000Z', restricted: false });
  });

  it('restricts sending when the grace period ends unpaid, not a minute before, and says why', async () => {
    const account = await payingAccount();
    await recordRenewalFailed(deps(), account.organizationId, INVOICE);
    world.app.clock.advance(7 * DAY_MS - 60_000);
    expect(await restrictUnpaidAccounts(deps())).toBe(0);
    expect((await send(account.apiKey)).status).toBe(200);

    world.app.clock.advance(60_000);
    expect(await restrictUnpaidAccounts(deps())).toBe(1);
    expect(await restrictUnpaidAccounts(deps())).toBe(0);
    expect(await standing(account.organizationId)).toMatchObject({ status: 'restricted', cause: 'non_payment' });
    const refused = await send(account.apiKey);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: expect.stringMatching(/renewal is unpaid.*payment is confirmed/), code: 'ACCOUNT_RESTRICTED' });
    expect(await recipientsOf(/^Sending is restricted for /)).toEqual(['accounts@acme.example.com', 'owner@acme.example.com']);
    expect((await dashboardCall(world.app, account.developer.cookie, 'query', 'organization.current')).data.payment).toMatchObject({ restricted: true });
  });

  it('paying lifts the restriction non-payment caused at once', async () => {
    const account = await payingAccount();
    await recordRenewalFailed(deps(), account.organizationId, INVOICE);
    world.app.clock.advance(8 * DAY_MS);
    await restrictUnpaidAccounts(deps());
    expect((await send(account.apiKey)).status).toBe(403);

    expect(await recordRenewalPaid(deps(), account.organizationId, INVOICE)).toBe(true);
    expect(await standing(account.organizationId)).toEqual({ status: 'active', cause: null, failedAt: null, graceUntil: null });
    expect((await send(account.apiKey)).status).toBe(200);
    expect((await dashboardCall(world.app, account.billing.cookie, 'query', 'organization.current')).data.payment).toBeNull();
    // A paid invoice with nothing owed (every ordinary renewal) changes nothing and records nothing.
    expect(await recordRenewalPaid(deps(), account.organizationId, INVOICE)).toBe(false);
    expect(await billingActions(account.organizationId)).toEqual([
      { action: 'billing.payment_failed', actor: 'billing' },
      { action: 'billing.restricted_for_non_payment', actor: 'billing' },
      { action: 'billing.payment_recovered', actor: 'billing' },
    ]);
  });
});

describe("the operator's status stands over billing's", () => {
  it('an account the operator restricts stays restricted when the late payment arrives', async () => {
    const account = await payingAccount();
    await recordRenewalFailed(deps(), account.organizationId, INVOICE);
    await runAdminCommand(deps(), 'org:status', { org: account.organizationId, status: 'restricted' });
    await recordRenewalPaid(deps(), account.organizationId, INVOICE);
    expect(await standing(account.organizationId)).toEqual({ status: 'restricted', cause: 'operator', failedAt: null, graceUntil: null });
    const refused = await send(account.apiKey);
    expect(refused.body).toEqual({ error: 'This account is on hold; contact support', code: 'ACCOUNT_RESTRICTED' });
  });

  it('restricting again an account restricted for non-payment makes it the operator’s', async () => {
    const account = await payingAccount();
    await recordRenewalFailed(deps(), account.organizationId, INVOICE);
    world.app.clock.advance(7 * DAY_MS);
    await restrictUnpaidAccounts(deps());
    await runAdminCommand(deps(), 'org:status', { org: account.organizationId, status: 'restricted' });
    await recordRenewalPaid(deps(), account.organizationId, INVOICE);
    expect(await standing(account.organizationId)).toMatchObject({ status: 'restricted', cause: 'operator' });
  });

  it('an account the operator lets send again is not restricted again for the same unpaid renewal', async () => {
    const account = await payingAccount();
    await recordRenewalFailed(deps(), account.organizationId, INVOICE);
    world.app.clock.advance(7 * DAY_MS);
    await restrictUnpaidAccounts(deps());
    await runAdminCommand(deps(), 'org:status', { org: account.organizationId, status: 'active' });
    world.app.clock.advance(DAY_MS);
    expect(await restrictUnpaidAccounts(deps())).toBe(0);
    expect(await standing(account.organizationId)).toMatchObject({ status: 'active', cause: null, graceUntil: null });
    expect((await send(account.apiKey)).status).toBe(200);
    // Still owed, and the page says so.
    expect((await dashboardCall(world.app, account.billing.cookie, 'query', 'organization.current')).data.payment).toEqual({ failedAt: '2026-11-03T09:00:00.000Z', graceUntil: null, restricted: false });
  });

  it('a suspended account whose grace period ends keeps the operator’s status', async () => {
    const account = await payingAccount();
    await recordRenewalFailed(deps(), account.organizationId, INVOICE);
    await runAdminCommand(deps(), 'org:status', { org: account.organizationId, status: 'suspended' });
    world.app.clock.advance(8 * DAY_MS);
    expect(await restrictUnpaidAccounts(deps())).toBe(0);
    expect(await standing(account.organizationId)).toMatchObject({ status: 'suspended', cause: 'operator' });
  });
});

describe('the grace period', () => {
  it('is BILLING_GRACE_DAYS long', async () => {
    const shortGrace = await startTestApp({ env: { BILLING_GRACE_DAYS: '3' } });
    try {
      shortGrace.clock.set('2026-11-03T09:00:00.000Z');
      const org = await shortGrace.createOrg({ plan: '10k' });
      await recordRenewalFailed(shortGrace.runtime.deps, org.organizationId, INVOICE);
      const [row] = await shortGrace.runtime.deps.db.select({ graceUntil: organizations.paymentGraceUntil }).from(organizations).where(eq(organizations.id, org.organizationId));
      expect(row!.graceUntil!.toISOString()).toBe('2026-11-06T09:00:00.000Z');
    } finally {
      await shortGrace.close();
    }
  });
});
