import { randomBytes } from 'node:crypto';
import { createApiKey } from '@/server/services/api-keys/keys';
import { eq } from 'drizzle-orm';
import { audiences, automationRuns, automations, automationVersions, contactImports, customEvents, contactProperties, contacts, domains, events, formConsentTexts, forms, organizations, suppressions, topics, webhookDeliveries, webhooks } from '@/db/schema';
import { newId } from '@/server/ids';
import { newSigningSecret, sealSecret } from '@/server/services/webhooks/secrets';
import { registerDomain } from '@/server/services/domains/crud';
import { toSendEmailInput } from '@/server/routers/emails/wire';
import { sendEmail } from '@/server/services/emails/accept/send';
import { getEmail } from '@/server/services/emails/read';
import { createTemplate } from '@/server/services/templates/crud';
import { createBroadcast } from '@/server/services/broadcasts/crud';
import { sendBroadcast } from '@/server/services/broadcasts/send';
import type { Principal } from '@/server/services/shared/principal';
import type { TestApp } from '../support/app';
import { importForm } from '../support/contact-imports';
import { insertMember } from '../support/members';

/**
 * Every authenticated REST route, written from the spec by hand (not derived from the router),
 * so the permission and cross-organization tests check the code against the contract. A route
 * the router serves that is missing here fails the coverage test: each resource adds its rows.
 */
export interface RouteCase {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** Spec: sending_access reaches only the four send paths. */
  sendingAccess: boolean;
  /** Writes state shared by live and test mode, which a test key may not change. */
  liveWrite: boolean;
  /** Reaches live data whatever the key's mode (a data-subject request), so a test key is refused even to read. */
  liveOnly?: boolean;
  /** Makes what the route needs in the caller's organization and mode, and returns path params and body. */
  prepare?: (ctx: PrepareContext) => Promise<{ params?: Record<string, string>; body?: unknown }>;
  /** Makes a resource in another organization, for the 404 test; absent for routes without an id. */
  foreign?: (ctx: PrepareContext) => Promise<Record<string, string>>;
  /** The body that organization itself sends to show the refused call changed nothing, when `prepare`'s names the caller's own resources. */
  foreignBody?: (ctx: PrepareContext) => Promise<unknown>;
}

export interface PrepareContext {
  app: TestApp;
  organizationId: string;
  mode: 'live' | 'test';
}

const principalFor = (ctx: PrepareContext): Principal => ({
  organizationId: ctx.organizationId,
  permission: 'full_access',
  mode: ctx.mode,
  keyId: null,
  domainId: null,
  userId: null,
  plan: '10k',
  rateLimitOverride: null,
});

const makeKey = async (ctx: PrepareContext) =>
  (await createApiKey(ctx.app.runtime.deps, principalFor(ctx), { name: 'target', mode: ctx.mode })).id;

const makeDomain = async (ctx: PrepareContext) =>
  (await registerDomain(ctx.app.runtime.deps, { ...principalFor(ctx), mode: 'live' }, { name: `d${randomBytes(4).toString('hex')}.example.com` })).id;

/** A verified domain and a recipient domain with an MX, so a send in either mode is accepted. */
async function sendable(ctx: PrepareContext) {
  const domain = await registerDomain(ctx.app.runtime.deps, { ...principalFor(ctx), mode: 'live' }, { name: `s${randomBytes(4).toString('hex')}.example.com` });
  await ctx.app.runtime.deps.db.update(domains).set({ status: 'verified', verifiedAt: ctx.app.clock.now() }).where(eq(domains.id, domain.id));
  ctx.app.dns.mx('example.net', 'mx.example.net');
  return { from: `Acme <hello@${domain.name}>`, to: ['someone@example.net'], subject: 'Hi', text: 'Hello' };
}

const scheduledEmail = async (ctx: PrepareContext) => {
  const at = new Date(ctx.app.clock.now().getTime() + 3_600_000).toISOString();
  return (await sendEmail(ctx.app.runtime.deps, principalFor(ctx), toSendEmailInput({ ...(await sendable(ctx)), scheduled_at: at }, undefined))).id;
};

async function emailWithAttachment(ctx: PrepareContext) {
  const attachments = [{ filename: 'a.txt', content: Buffer.from('hello').toString('base64') }];
  const { id } = await sendEmail(ctx.app.runtime.deps, principalFor(ctx), toSendEmailInput({ ...(await sendable(ctx)), attachments }, undefined));
  const email = await getEmail(ctx.app.runtime.deps, principalFor(ctx), id);
  return { id, attachmentId: email.attachments[0]!.id };
}

const withScheduledEmail = (body?: (ctx: PrepareContext) => unknown) => ({
  prepare: async (ctx: PrepareContext) => ({ params: { id: await scheduledEmail(ctx) }, body: body?.(ctx) }),
  foreign: async (ctx: PrepareContext) => ({ id: await scheduledEmail(ctx) }),
});

const withDomain = {
  prepare: async (ctx: PrepareContext) => ({ params: { id: await makeDomain(ctx) } }),
  foreign: async (ctx: PrepareContext) => ({ id: await makeDomain(ctx) }),
};

/**
 * An endpoint stored as it is after creation, at a loopback URL the test app does not allow (so a
 * ping or replay is refused before any connection is attempted).
 */
async function makeWebhook(ctx: PrepareContext): Promise<string> {
  const now = ctx.app.clock.now();
  const id = newId();
  const secretSealed = sealSecret(newSigningSecret(), ctx.app.runtime.deps.encryptionKey);
  await ctx.app.runtime.deps.db.insert(webhooks).values({ id, organizationId: ctx.organizationId, url: 'http://127.0.0.1:9/hook', events: ['*'], secretSealed, createdAt: now, updatedAt: now });
  return id;
}

/** An endpoint with one finished (failed) delivery of an event, which may be replayed. */
async function makeDelivery(ctx: PrepareContext): Promise<{ id: string; deliveryId: string }> {
  const id = await makeWebhook(ctx);
  const now = ctx.app.clock.now();
  const eventId = newId();
  const deliveryId = newId();
  // An event of the caller's mode: a test key sees test-mode deliveries only.
  await ctx.app.runtime.deps.db
    .insert(events)
    .values({ id: eventId, organizationId: ctx.organizationId, type: 'email.sent', data: { emailId: newId(), mode: ctx.mode }, createdAt: now });
  await ctx.app.runtime.deps.db
    .insert(webhookDeliveries)
    .values({ id: deliveryId, webhookId: id, organizationId: ctx.organizationId, eventId, eventType: 'email.sent', status: 'failed', attempts: 4, createdAt: now, updatedAt: now });
  return { id, deliveryId };
}

const withWebhook = (body?: () => unknown) => ({
  prepare: async (ctx: PrepareContext) => ({ params: { id: await makeWebhook(ctx) }, body: body?.() }),
  foreign: async (ctx: PrepareContext) => ({ id: await makeWebhook(ctx) }),
});

async function makeContactProperty(ctx: PrepareContext): Promise<string> {
  const id = newId();
  const now = ctx.app.clock.now();
  await ctx.app.runtime.deps.db.insert(contactProperties).values({ id, organizationId: ctx.organizationId, key: `plan_${randomBytes(3).toString('hex')}`, type: 'string', createdAt: now, updatedAt: now });
  return id;
}

async function makeTopic(ctx: PrepareContext): Promise<string> {
  const id = newId();
  const now = ctx.app.clock.now();
  await ctx.app.runtime.deps.db.insert(topics).values({ id, organizationId: ctx.organizationId, name: `Product news ${randomBytes(3).toString('hex')}`, defaultSubscription: 'opt_in', createdAt: now, updatedAt: now });
  return id;
}

/** A sign-up form of the organization, into a new audience, with its first consent text. */
async function makeForm(ctx: PrepareContext): Promise<string> {
  const id = newId();
  const now = ctx.app.clock.now();
  const audienceId = await makeAudience(ctx);
  const db = ctx.app.runtime.deps.db;
  await db.insert(forms).values({ id, organizationId: ctx.organizationId, publicKey: `frm_${randomBytes(16).toString('base64url')}`, name: 'Newsletter sign-up', audienceId, consentVersion: 1, allowedOrigins: ['https://www.example.com'], createdAt: now, updatedAt: now });
  await db.insert(formConsentTexts).values({ formId: id, organizationId: ctx.organizationId, version: 1, text: 'Yes, send me the newsletter.', createdAt: now });
  return id;
}

/** A definition that names nothing of the organization's: a new contact waits an hour. */
const QUIET_AUTOMATION = {
  steps: [
    { key: 'start', type: 'trigger' as const, config: { event_name: 'contact.created' } },
    { key: 'pause', type: 'delay' as const, config: { duration: '1 hour' } },
  ],
  connections: [{ from: 'start', to: 'pause', type: 'default' as const }],
};

/** A disabled automation of the organization at version 1. */
async function makeAutomation(ctx: PrepareContext): Promise<string> {
  const id = newId();
  const now = ctx.app.clock.now();
  const db = ctx.app.runtime.deps.db;
  await db.insert(automations).values({ id, organizationId: ctx.organizationId, name: 'Quiet', status: 'disabled', currentVersion: 1, triggerEventName: 'contact.created', createdAt: now, updatedAt: now });
  await db.insert(automationVersions).values({ automationId: id, organizationId: ctx.organizationId, version: 1, definition: QUIET_AUTOMATION, createdAt: now });
  return id;
}

/** A declared event of the organization, with a schema. */
async function makeCustomEvent(ctx: PrepareContext): Promise<string> {
  const id = newId();
  await ctx.app.runtime.deps.db.insert(customEvents).values({ id, organizationId: ctx.organizationId, name: `user.created-${randomBytes(3).toString('hex')}`, schema: { plan: 'string' }, createdAt: ctx.app.clock.now() });
  return id;
}

/** An automation and a run of it in the caller's mode (a test key reads test runs only), completed at its trigger. */
async function makeRun(ctx: PrepareContext): Promise<Record<string, string>> {
  const id = await makeAutomation(ctx);
  const runId = newId();
  const now = ctx.app.clock.now();
  await ctx.app.runtime.deps.db.insert(automationRuns).values({
    id: runId,
    organizationId: ctx.organizationId,
    automationId: id,
    version: 1,
    contactEmail: 'ada@example.net',
    test: ctx.mode === 'test',
    status: 'completed',
    stepKey: 'start',
    stepState: 'ready',
    event: { name: 'contact.created', payload: {} },
    createdAt: now,
    updatedAt: now,
    completedAt: now,
  });
  return { id, runId };
}

/** A contact import of the organization, done (no job left to run). */
async function makeContactImport(ctx: PrepareContext): Promise<string> {
  const id = newId();
  const now = ctx.app.clock.now();
  await ctx.app.runtime.deps.db.insert(contactImports).values({ id, organizationId: ctx.organizationId, status: 'completed', fileName: 'contacts.csv', requestedBy: {}, total: 1, created: 1, createdAt: now, completedAt: now });
  return id;
}

const withMade = (make: (ctx: PrepareContext) => Promise<string>, body?: () => unknown) => ({
  prepare: async (ctx: PrepareContext) => ({ params: { id: await make(ctx) }, body: body?.() }),
  foreign: async (ctx: PrepareContext) => ({ id: await make(ctx) }),
});

const withEvent = (body?: () => unknown) => ({
  prepare: async (ctx: PrepareContext) => ({ params: { identifier: await makeCustomEvent(ctx) }, body: body?.() }),
  foreign: async (ctx: PrepareContext) => ({ identifier: await makeCustomEvent(ctx) }),
});

async function makeAudience(ctx: PrepareContext): Promise<string> {
  const id = newId();
  await ctx.app.runtime.deps.db.insert(audiences).values({ id, organizationId: ctx.organizationId, name: 'Newsletter', contactCount: 1, createdAt: ctx.app.clock.now() });
  return id;
}

/** An audience with one contact in it. */
async function makeContact(ctx: PrepareContext): Promise<{ id: string; contactId: string }> {
  const id = await makeAudience(ctx);
  const { contactId } = await insertMember(ctx.app.runtime.deps.db, { organizationId: ctx.organizationId, audienceId: id, email: `c${randomBytes(4).toString('hex')}@example.net`, now: ctx.app.clock.now() });
  return { id, contactId };
}

/** A contact asked to confirm (double opt-in) and not confirmed yet, by id. */
async function makePendingContact(ctx: PrepareContext): Promise<string> {
  const id = newId();
  const now = ctx.app.clock.now();
  await ctx.app.runtime.deps.db
    .insert(contacts)
    .values({ id, organizationId: ctx.organizationId, email: `p${randomBytes(4).toString('hex')}@example.net`, unsubscribed: true, pendingSince: now, createdAt: now, updatedAt: now });
  return id;
}

/** A pending contact and a sender on a verified domain of the organization, for a re-sent confirmation. */
const withPendingContact = {
  prepare: async (ctx: PrepareContext) => ({ params: { idOrEmail: await makePendingContact(ctx) }, body: { from: (await sendable(ctx)).from } }),
  foreign: async (ctx: PrepareContext) => ({ idOrEmail: await makePendingContact(ctx) }),
  foreignBody: async (ctx: PrepareContext) => ({ from: (await sendable(ctx)).from }),
};

/** A contact of the organization (in an audience), named by id in `/contacts/{idOrEmail}…`. */
const withProfile = (body?: () => unknown, segment = false) => {
  const params = async (ctx: PrepareContext): Promise<Record<string, string>> => {
    const made = await makeContact(ctx);
    return segment ? { idOrEmail: made.contactId, segmentId: made.id } : { idOrEmail: made.contactId };
  };
  return { prepare: async (ctx: PrepareContext) => ({ params: await params(ctx), body: body?.() }), foreign: params };
};

const withAudience = (body?: (params: { id: string }) => unknown) => ({
  prepare: async (ctx: PrepareContext) => {
    const params = { id: await makeAudience(ctx) };
    return { params, body: body?.(params) };
  },
  foreign: async (ctx: PrepareContext) => ({ id: await makeAudience(ctx) }),
});

/** A contact of the organization, as `/contacts/{idOrEmail}` names it (by id; the address is tested with the resource), and a body of the organization's own. */
const withContactOnly = (body?: (ctx: PrepareContext) => Promise<unknown>) => ({
  prepare: async (ctx: PrepareContext) => ({ params: { idOrEmail: (await makeContact(ctx)).contactId }, body: await body?.(ctx) }),
  foreign: async (ctx: PrepareContext) => ({ idOrEmail: (await makeContact(ctx)).contactId }),
  ...(body ? { foreignBody: body } : {}),
});

const withContact = (body?: () => unknown) => ({
  prepare: async (ctx: PrepareContext) => ({ params: await makeContact(ctx), body: body?.() }),
  foreign: makeContact,
});

const makeTemplate = async (ctx: PrepareContext) =>
  (await createTemplate(ctx.app.runtime.deps, principalFor(ctx), { name: 'Welcome', subject: 'Hi {{ name }}', text: 'Hello {{ name | default: "there" }}' })).id;

const withTemplate = (body?: () => unknown) => ({
  prepare: async (ctx: PrepareContext) => ({ params: { id: await makeTemplate(ctx) }, body: body?.() }),
  foreign: async (ctx: PrepareContext) => ({ id: await makeTemplate(ctx) }),
});

const withDelivery = {
  prepare: async (ctx: PrepareContext) => ({ params: await makeDelivery(ctx) }),
  foreign: makeDelivery,
};

/** An entry on the organization's suppression list (shared by live and test mode). */
async function makeSuppression(ctx: PrepareContext): Promise<string> {
  const id = newId();
  await ctx.app.runtime.deps.db
    .insert(suppressions)
    .values({ id, organizationId: ctx.organizationId, email: `s${randomBytes(4).toString('hex')}@example.com`, reason: 'manual', createdAt: ctx.app.clock.now() });
  return id;
}

/** An address the organization holds data for (a suppression entry), as `{email}` takes it. */
async function makeRecipient(ctx: PrepareContext): Promise<{ email: string }> {
  const email = `r${randomBytes(4).toString('hex')}@example.com`;
  await ctx.app.runtime.deps.db.insert(suppressions).values({ id: newId(), organizationId: ctx.organizationId, email, reason: 'manual', createdAt: ctx.app.clock.now() });
  return { email };
}

const withRecipient = {
  prepare: async (ctx: PrepareContext) => ({ params: await makeRecipient(ctx) }),
  foreign: makeRecipient,
};

/**
 * A broadcast of a paid organization that can be sent: from a verified domain, to an audience with
 * one contact; `scheduled` an hour ahead. Test copies to the default owner (owner@acme.test) resolve.
 */
async function makeBroadcast(ctx: PrepareContext, state: 'draft' | 'scheduled'): Promise<string> {
  const deps = ctx.app.runtime.deps;
  await deps.db.update(organizations).set({ plan: '10k' }).where(eq(organizations.id, ctx.organizationId));
  const { from } = await sendable(ctx);
  ctx.app.dns.mx('acme.test', 'mx.acme.test');
  const { id: audienceId } = await makeContact(ctx);
  const principal = principalFor(ctx);
  const { id } = await createBroadcast(deps, principal, { audienceId, from, subject: 'News', html: '<p>Hi {{ name }}</p><a href="{{ unsubscribe_url }}">Unsubscribe</a>' });
  if (state === 'scheduled') await sendBroadcast(deps, principal, id, { scheduledAt: new Date(ctx.app.clock.now().getTime() + 3_600_000) });
  return id;
}

const withBroadcast = (state: 'draft' | 'scheduled' = 'draft', body?: () => unknown) => ({
  prepare: async (ctx: PrepareContext) => ({ params: { id: await makeBroadcast(ctx, state) }, body: body?.() }),
  foreign: async (ctx: PrepareContext) => ({ id: await makeBroadcast(ctx, state) }),
});

export const ROUTES: RouteCase[] = [
  { method: 'POST', path: '/api-keys', sendingAccess: false, liveWrite: false, prepare: async () => ({ body: { name: 'matrix' } }) },
  { method: 'GET', path: '/api-keys', sendingAccess: false, liveWrite: false },
  {
    method: 'DELETE',
    path: '/api-keys/{id}',
    sendingAccess: false,
    liveWrite: false,
    prepare: async (ctx) => ({ params: { id: await makeKey(ctx) } }),
    foreign: async (ctx) => ({ id: await makeKey(ctx) }),
  },
  {
    method: 'POST',
    path: '/domains',
    sendingAccess: false,
    liveWrite: true,
    prepare: async () => ({ body: { name: `n${randomBytes(4).toString('hex')}.example.com` } }),
  },
  { method: 'GET', path: '/domains', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/domains/{id}', sendingAccess: false, liveWrite: false, ...withDomain },
  {
    method: 'PATCH',
    path: '/domains/{id}',
    sendingAccess: false,
    liveWrite: true,
    prepare: async (ctx) => ({ params: { id: await makeDomain(ctx) }, body: { click_tracking: true } }),
    foreign: withDomain.foreign,
  },
  { method: 'DELETE', path: '/domains/{id}', sendingAccess: false, liveWrite: true, ...withDomain },
  { method: 'POST', path: '/domains/{id}/verify', sendingAccess: false, liveWrite: true, ...withDomain },
  { method: 'GET', path: '/domains/{id}/domain-connect', sendingAccess: false, liveWrite: false, ...withDomain },
  { method: 'POST', path: '/emails', sendingAccess: true, liveWrite: false, prepare: async (ctx) => ({ body: await sendable(ctx) }) },
  { method: 'POST', path: '/emails/batch', sendingAccess: true, liveWrite: false, prepare: async (ctx) => ({ body: [await sendable(ctx)] }) },
  { method: 'POST', path: '/emails/preflight', sendingAccess: false, liveWrite: false, prepare: async (ctx) => ({ body: await sendable(ctx) }) },
  { method: 'POST', path: '/emails/batch/preflight', sendingAccess: false, liveWrite: false, prepare: async (ctx) => ({ body: [await sendable(ctx)] }) },
  { method: 'GET', path: '/emails', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/emails/{id}', sendingAccess: false, liveWrite: false, ...withScheduledEmail() },
  {
    method: 'PATCH',
    path: '/emails/{id}',
    sendingAccess: true,
    liveWrite: false,
    ...withScheduledEmail((ctx) => ({ scheduled_at: new Date(ctx.app.clock.now().getTime() + 7_200_000).toISOString() })),
  },
  { method: 'POST', path: '/emails/{id}/cancel', sendingAccess: true, liveWrite: false, ...withScheduledEmail() },
  { method: 'GET', path: '/emails/{id}/processing-record', sendingAccess: false, liveWrite: false, ...withScheduledEmail() },
  { method: 'GET', path: '/organization/processing-activities', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/recipients/{email}/data', sendingAccess: false, liveWrite: false, liveOnly: true, ...withRecipient },
  { method: 'DELETE', path: '/recipients/{email}/data', sendingAccess: false, liveWrite: true, ...withRecipient },
  {
    method: 'GET',
    path: '/emails/{id}/attachments/{attachmentId}',
    sendingAccess: false,
    liveWrite: false,
    prepare: async (ctx) => ({ params: await emailWithAttachment(ctx) }),
    foreign: emailWithAttachment,
  },
  {
    method: 'POST',
    path: '/webhooks',
    sendingAccess: false,
    liveWrite: true,
    // Creation resolves the name and never connects: a public answer is safe here.
    prepare: async (ctx) => {
      ctx.app.dns.set('hooks.example.com', 'A', ['93.184.216.34']);
      return { body: { url: 'https://hooks.example.com/hook', events: ['*'] } };
    },
  },
  { method: 'GET', path: '/webhooks', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/webhooks/{id}', sendingAccess: false, liveWrite: false, ...withWebhook() },
  { method: 'PATCH', path: '/webhooks/{id}', sendingAccess: false, liveWrite: true, ...withWebhook(() => ({ events: ['email.bounced'] })) },
  { method: 'DELETE', path: '/webhooks/{id}', sendingAccess: false, liveWrite: true, ...withWebhook() },
  { method: 'GET', path: '/webhooks/{id}/secret', sendingAccess: false, liveWrite: false, ...withWebhook() },
  // A test key rotates the test-mode secret: test-mode state (docs/webhooks.md).
  { method: 'POST', path: '/webhooks/{id}/rotate-secret', sendingAccess: false, liveWrite: false, ...withWebhook() },
  { method: 'POST', path: '/webhooks/{id}/signing-secret/rotate', sendingAccess: false, liveWrite: false, ...withWebhook() },
  { method: 'POST', path: '/webhooks/{id}/test', sendingAccess: false, liveWrite: true, ...withWebhook() },
  { method: 'GET', path: '/webhooks/{id}/deliveries', sendingAccess: false, liveWrite: false, ...withWebhook() },
  { method: 'GET', path: '/webhooks/{id}/deliveries/{deliveryId}', sendingAccess: false, liveWrite: false, ...withDelivery },
  { method: 'POST', path: '/webhooks/{id}/deliveries/{deliveryId}/replay', sendingAccess: false, liveWrite: true, ...withDelivery },
  { method: 'GET', path: '/events', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/usage', sendingAccess: false, liveWrite: false },
  { method: 'POST', path: '/audiences', sendingAccess: false, liveWrite: true, prepare: async () => ({ body: { name: 'Newsletter' } }) },
  { method: 'GET', path: '/audiences', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/audiences/{id}', sendingAccess: false, liveWrite: false, ...withAudience() },
  { method: 'GET', path: '/audiences/{id}/sunset-preview', sendingAccess: false, liveWrite: false, ...withAudience() },
  { method: 'DELETE', path: '/audiences/{id}', sendingAccess: false, liveWrite: true, ...withAudience() },
  { method: 'POST', path: '/audiences/{id}/contacts', sendingAccess: false, liveWrite: true, ...withAudience(() => ({ email: 'ada@example.net' })) },
  { method: 'GET', path: '/audiences/{id}/contacts', sendingAccess: false, liveWrite: false, ...withAudience() },
  {
    method: 'POST',
    path: '/audiences/{id}/contacts/batch',
    sendingAccess: false,
    liveWrite: true,
    ...withAudience(() => ({ contacts: [{ email: 'ada@example.net' }, { email: 'grace@example.net', name: 'Grace' }] })),
  },
  { method: 'POST', path: '/audiences/{id}/contacts/batch-delete', sendingAccess: false, liveWrite: true, ...withAudience(() => ({ ids: [newId()] })) },
  { method: 'GET', path: '/audiences/{id}/contacts/{contactId}', sendingAccess: false, liveWrite: false, ...withContact() },
  { method: 'PATCH', path: '/audiences/{id}/contacts/{contactId}', sendingAccess: false, liveWrite: true, ...withContact(() => ({ subscribed: false })) },
  { method: 'DELETE', path: '/audiences/{id}/contacts/{contactId}', sendingAccess: false, liveWrite: true, ...withContact() },
  { method: 'POST', path: '/segments', sendingAccess: false, liveWrite: true, prepare: async () => ({ body: { name: 'Customers' } }) },
  { method: 'GET', path: '/segments', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/segments/{id}', sendingAccess: false, liveWrite: false, ...withAudience() },
  { method: 'PATCH', path: '/segments/{id}', sendingAccess: false, liveWrite: true, ...withAudience(() => ({ name: 'Renamed' })) },
  { method: 'DELETE', path: '/segments/{id}', sendingAccess: false, liveWrite: true, ...withAudience() },
  { method: 'GET', path: '/segments/{id}/contacts', sendingAccess: false, liveWrite: false, ...withAudience() },
  { method: 'POST', path: '/contacts', sendingAccess: false, liveWrite: true, prepare: async () => ({ body: { email: `p${randomBytes(3).toString('hex')}@example.net`, first_name: 'Ada' } }) },
  { method: 'GET', path: '/contacts', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/contacts/{idOrEmail}', sendingAccess: false, liveWrite: false, ...withProfile() },
  { method: 'PATCH', path: '/contacts/{idOrEmail}', sendingAccess: false, liveWrite: true, ...withProfile(() => ({ last_name: 'Lovelace' })) },
  { method: 'DELETE', path: '/contacts/{idOrEmail}', sendingAccess: false, liveWrite: true, ...withProfile() },
  { method: 'GET', path: '/contacts/{idOrEmail}/segments', sendingAccess: false, liveWrite: false, ...withProfile() },
  { method: 'POST', path: '/contacts/{idOrEmail}/confirmation', sendingAccess: false, liveWrite: true, ...withPendingContact },
  // multipart/form-data: the form goes as it is (test/support/app.ts).
  { method: 'POST', path: '/contacts/imports', sendingAccess: false, liveWrite: true, prepare: async () => ({ body: importForm(`email\nimported-${randomBytes(3).toString('hex')}@example.net\n`) }) },
  { method: 'GET', path: '/contacts/imports', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/contacts/imports/{id}', sendingAccess: false, liveWrite: false, ...withMade(makeContactImport) },
  { method: 'POST', path: '/contacts/{idOrEmail}/segments/{segmentId}', sendingAccess: false, liveWrite: true, ...withProfile(undefined, true) },
  { method: 'DELETE', path: '/contacts/{idOrEmail}/segments/{segmentId}', sendingAccess: false, liveWrite: true, ...withProfile(undefined, true) },
  { method: 'POST', path: '/contact-properties', sendingAccess: false, liveWrite: true, prepare: async () => ({ body: { key: `tier_${randomBytes(3).toString('hex')}`, type: 'string' } }) },
  { method: 'GET', path: '/contact-properties', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/contact-properties/{id}', sendingAccess: false, liveWrite: false, ...withMade(makeContactProperty) },
  { method: 'PATCH', path: '/contact-properties/{id}', sendingAccess: false, liveWrite: true, ...withMade(makeContactProperty, () => ({ fallback_value: 'free' })) },
  { method: 'DELETE', path: '/contact-properties/{id}', sendingAccess: false, liveWrite: true, ...withMade(makeContactProperty) },
  { method: 'POST', path: '/topics', sendingAccess: false, liveWrite: true, prepare: async () => ({ body: { name: `Offers ${randomBytes(3).toString('hex')}`, default_subscription: 'opt_out' } }) },
  { method: 'GET', path: '/topics', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/topics/{id}', sendingAccess: false, liveWrite: false, ...withMade(makeTopic) },
  { method: 'PATCH', path: '/topics/{id}', sendingAccess: false, liveWrite: true, ...withMade(makeTopic, () => ({ description: 'Now and then' })) },
  { method: 'DELETE', path: '/topics/{id}', sendingAccess: false, liveWrite: true, ...withMade(makeTopic) },
  { method: 'GET', path: '/contacts/{idOrEmail}/topics', sendingAccess: false, liveWrite: false, ...withContactOnly() },
  { method: 'GET', path: '/contacts/{idOrEmail}/consent', sendingAccess: false, liveWrite: false, ...withContactOnly() },
  {
    method: 'POST',
    path: '/forms',
    sendingAccess: false,
    liveWrite: true,
    prepare: async (ctx) => ({ body: { name: 'Sign-up', audience_id: await makeAudience(ctx), consent_text: 'Yes, send me news.', allowed_origins: ['https://www.example.com'] } }),
  },
  { method: 'GET', path: '/forms', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/forms/{id}', sendingAccess: false, liveWrite: false, ...withMade(makeForm) },
  { method: 'PATCH', path: '/forms/{id}', sendingAccess: false, liveWrite: true, ...withMade(makeForm, () => ({ name: 'Renamed' })) },
  { method: 'DELETE', path: '/forms/{id}', sendingAccess: false, liveWrite: true, ...withMade(makeForm) },
  { method: 'GET', path: '/forms/{id}/submissions', sendingAccess: false, liveWrite: false, ...withMade(makeForm) },
  { method: 'POST', path: '/automations', sendingAccess: false, liveWrite: true, prepare: async () => ({ body: { name: 'Quiet', ...QUIET_AUTOMATION } }) },
  { method: 'GET', path: '/automations', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/automations/{id}', sendingAccess: false, liveWrite: false, ...withMade(makeAutomation) },
  { method: 'PATCH', path: '/automations/{id}', sendingAccess: false, liveWrite: true, ...withMade(makeAutomation, () => ({ name: 'Renamed', status: 'enabled' })) },
  { method: 'DELETE', path: '/automations/{id}', sendingAccess: false, liveWrite: true, ...withMade(makeAutomation) },
  { method: 'POST', path: '/automations/{id}/duplicate', sendingAccess: false, liveWrite: true, ...withMade(makeAutomation) },
  { method: 'POST', path: '/automations/{id}/stop', sendingAccess: false, liveWrite: true, ...withMade(makeAutomation) },
  { method: 'GET', path: '/automations/{id}/runs', sendingAccess: false, liveWrite: false, ...withMade(makeAutomation) },
  { method: 'GET', path: '/automations/{id}/figures', sendingAccess: false, liveWrite: false, ...withMade(makeAutomation) },
  { method: 'GET', path: '/automations/{id}/runs/{runId}', sendingAccess: false, liveWrite: false, prepare: async (ctx) => ({ params: await makeRun(ctx) }), foreign: makeRun },
  { method: 'POST', path: '/events', sendingAccess: false, liveWrite: true, prepare: async () => ({ body: { name: `order.paid-${randomBytes(3).toString('hex')}`, schema: { total: 'number' } } }) },
  { method: 'GET', path: '/events/declared', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/events/{identifier}', sendingAccess: false, liveWrite: false, ...withEvent() },
  { method: 'PATCH', path: '/events/{identifier}', sendingAccess: false, liveWrite: true, ...withEvent(() => ({ schema: { plan: 'string', seats: 'number' } })) },
  { method: 'DELETE', path: '/events/{identifier}', sendingAccess: false, liveWrite: true, ...withEvent() },
  // A test key sends events too (its runs are test runs); sending_access keys do not (DESIGN §5). An address that is no contact: kept, starts nothing.
  { method: 'POST', path: '/events/send', sendingAccess: false, liveWrite: false, prepare: async () => ({ body: { event: 'user.created', email: 'ada@example.net', payload: { plan: 'pro' } } }) },
  {
    method: 'PATCH',
    path: '/contacts/{idOrEmail}/topics',
    sendingAccess: false,
    liveWrite: true,
    ...withContactOnly(async (ctx) => ({ topics: [{ id: await makeTopic(ctx), subscription: 'opt_in' }] })),
  },
  { method: 'GET', path: '/suppressions', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/suppressions/export', sendingAccess: false, liveWrite: false },
  { method: 'POST', path: '/suppressions', sendingAccess: false, liveWrite: true, prepare: async () => ({ body: { email: `n${randomBytes(4).toString('hex')}@example.com` } }) },
  { method: 'POST', path: '/suppressions/batch', sendingAccess: false, liveWrite: true, prepare: async () => ({ body: { emails: ['a@example.com', 'b@example.com'] } }) },
  { method: 'GET', path: '/suppressions/{id}', sendingAccess: false, liveWrite: false, ...withMade(makeSuppression) },
  {
    method: 'DELETE',
    path: '/suppressions/{id}',
    sendingAccess: false,
    liveWrite: true,
    prepare: async (ctx) => ({ params: { id: await makeSuppression(ctx) } }),
    foreign: async (ctx) => ({ id: await makeSuppression(ctx) }),
  },
  { method: 'POST', path: '/templates', sendingAccess: false, liveWrite: true, prepare: async () => ({ body: { name: 'Receipt', subject: 'Your receipt', html: '<p>Thanks {{ name }}</p>' } }) },
  { method: 'GET', path: '/templates', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/templates/{id}', sendingAccess: false, liveWrite: false, ...withTemplate() },
  { method: 'GET', path: '/templates/{id}/preview', sendingAccess: false, liveWrite: false, ...withTemplate() },
  { method: 'PATCH', path: '/templates/{id}', sendingAccess: false, liveWrite: true, ...withTemplate(() => ({ subject: 'Hello {{ name }}' })) },
  { method: 'DELETE', path: '/templates/{id}', sendingAccess: false, liveWrite: true, ...withTemplate() },
  { method: 'POST', path: '/templates/{id}/duplicate', sendingAccess: false, liveWrite: true, ...withTemplate() },
  { method: 'POST', path: '/templates/{id}/publish', sendingAccess: false, liveWrite: true, ...withTemplate() },
  {
    method: 'POST',
    path: '/broadcasts',
    sendingAccess: false,
    liveWrite: true,
    prepare: async (ctx) => ({ body: { audience_id: await makeAudience(ctx), from: 'News <news@example.com>', subject: 'News', html: '<p>Hi {{ name }}</p>' } }),
  },
  { method: 'GET', path: '/broadcasts', sendingAccess: false, liveWrite: false },
  { method: 'GET', path: '/broadcasts/{id}', sendingAccess: false, liveWrite: false, ...withBroadcast() },
  { method: 'POST', path: '/broadcasts/{id}/duplicate', sendingAccess: false, liveWrite: true, ...withBroadcast() },
  { method: 'PATCH', path: '/broadcasts/{id}', sendingAccess: false, liveWrite: true, ...withBroadcast('draft', () => ({ name: 'Renamed' })) },
  { method: 'DELETE', path: '/broadcasts/{id}', sendingAccess: false, liveWrite: true, ...withBroadcast() },
  { method: 'POST', path: '/broadcasts/{id}/send', sendingAccess: false, liveWrite: true, ...withBroadcast() },
  { method: 'POST', path: '/broadcasts/{id}/test', sendingAccess: false, liveWrite: false, ...withBroadcast('draft', () => ({ to: ['owner@acme.test'] })) },
  { method: 'POST', path: '/broadcasts/{id}/cancel', sendingAccess: false, liveWrite: true, ...withBroadcast('scheduled') },
  { method: 'GET', path: '/broadcasts/{id}/preflight', sendingAccess: false, liveWrite: false, ...withBroadcast() },
];

export const fillPath = (path: string, params: Record<string, string> = {}) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (!value) throw new Error(`no value for {${name}} in ${path}`);
    return encodeURIComponent(value);
  });
