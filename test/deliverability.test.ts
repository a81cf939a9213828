import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { simpleParser, type ParsedMail } from 'mailparser';
import { domains } from '@/db/schema';
import { runAdminCommand } from '@/server/admin/commands';
import { closeRelayPools } from '@/server/mail/delivery';
import type { SmtpGateway } from '@/server/mail/gateway-server';
import { sweepAutomationRuns } from '@/server/services/automations';
import { sweepBroadcasts } from '@/server/services/broadcasts/fan-out';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { runSunset } from '@/server/services/sunset/run';
import { broadcastHeldEmail, broadcastResumedEmail } from '@/emails/broadcast-held';
import { confirmNotificationAddressEmail } from '@/emails/confirm-notification-address';
import { invitationEmail } from '@/emails/invitation';
import { organizationDeletionEmail } from '@/emails/organization-deletion';
import { paymentFailedEmail, restrictedForNonPaymentEmail } from '@/emails/payment-failed';
import { overageEnteredEmail } from '@/emails/overage-entered';
import { webhookFailingEmail } from '@/emails/webhook-failing';
import { deliveryPausedEmail } from '@/emails/delivery-paused';
import type { RenderedEmail } from '@/emails/layout';
import { passwordResetEmail } from '@/emails/password-reset';
import { RESET_LINK_TTL_MS, resetLinkOf } from '@/server/services/accounts/password-reset';
import { INVITATION_PATH, INVITATION_TTL_MS } from '@/server/services/members';
import { CONFIRM_ADDRESS_PATH, CONFIRMATION_LINK_TTL_MS, mailConfirmationLink } from '@/server/services/organizations/owner-confirmation';
import { DELETION_GRACE_DAYS } from '@/server/vocabulary/organization-deletion';
import { enqueueSystemEmail, sweepSystemEmails } from '@/server/services/system-mail/queue';
import type { SystemMailRecords } from '@/server/services/system-mail/records';
import { DAY_MS } from '@/server/services/shared/time';
import { startTestApp, type TestApp } from './support/app';
import { hasDebianTool } from './support/debian-tool';
import { startTestGateway } from './support/gateway';
import { keyFor } from './support/keys';
import { publishRecords } from './support/domains';
import { authenticateReceived } from './support/mail-auth';
import { sendingOrg } from './support/sending-org';
import { startMxServer, type MxServer } from './support/smtp-mx';
import { scoreMessages, type SpamVerdict } from './support/spamassassin';

// Every kind of message the service sends, delivered for real to an MX on loopback, then read as a
// receiver would: Apache SpamAssassin (local rules only) and mailauth (DKIM, SPF, DMARC) against
// the test DNS. docs/delivery.md shows the scores this measures.

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures/deliverability', name), 'utf8');

/** Rules that say the message is built wrong: none may hit, whatever the content or tracking. */
const MALFORMED = [/^MISSING_/, /^INVALID_/, /^MIME_HTML_ONLY$/, /^HTML_MIME_NO_HTML_TAG$/, /^MIME_.*_MISMATCH$/, /^MPART_ALT_DIFF/, /^FORGED_/, /^MSGID_/, /^DATE_IN_/, /^TVD_/];

/**
 * Rules that only the loopback set-up triggers, left out of the score: the MX of these tests adds
 * no Received header (a real one would), and a link to a local server may carry a port.
 */
const LOOPBACK_ONLY = new Set(['NO_RELAYS', 'NO_RECEIVED', 'WEIRD_PORT']);

/** The score a realistic message may have, loopback-only rules left out. */
const MAX_SCORE = 1.0;

const countedRules = (verdict: SpamVerdict) => Object.entries(verdict.rules).filter(([rule]) => !LOOPBACK_ONLY.has(rule));
const scoreOf = (rules: Array<[string, number]>) => rules.reduce((sum, [, points]) => sum + points, 0);

const spamassassin = hasDebianTool('spamassassin', 'spamassassin');

let app: TestApp;
let mx: MxServer;
let gateway: SmtpGateway;
let org: { organizationId: string; apiKey: string };

async function send(body: Record<string, unknown>): Promise<void> {
  const sent = await app.request('POST', '/api/emails', { key: org.apiKey, body: { from: 'Acme Tea <shop@acme.example.com>', ...body } });
  expect(sent.status, sent.text).toBe(200);
}

/** A broadcast of the newsletter to one contact, or only its test copy; the domain's open tracking as given. */
async function broadcast(to: string, options: { opens: boolean; testCopy?: boolean }): Promise<void> {
  await app.runtime.deps.db.update(domains).set({ openTracking: options.opens, clickTracking: false }).where(eq(domains.organizationId, org.organizationId));
  const audienceId = (await app.request('POST', '/api/audiences', { key: org.apiKey, body: { name: `List for ${to}` } })).body.id;
  await app.request('POST', `/api/audiences/${audienceId}/contacts/batch`, { key: org.apiKey, body: { contacts: [{ email: to }] } });
  const created = await app.request('POST', '/api/broadcasts', {
    key: org.apiKey,
    body: { audience_id: audienceId, from: 'Acme Tea <news@acme.example.com>', subject: 'The autumn harvest has arrived', html: fixture('newsletter.html') },
  });
  expect(created.status, created.text).toBe(201);
  if (options.testCopy) {
    const copy = await app.request('POST', `/api/broadcasts/${created.body.id}/test`, { key: org.apiKey, body: { to: [to] } });
    expect(copy.status, copy.text).toBe(200);
  } else {
    expect((await app.request('POST', `/api/broadcasts/${created.body.id}/send`, { key: org.apiKey })).status).toBe(200);
    while ((await sweepBroadcasts(app.runtime.deps)).outcomes.more);
  }
  await app.runtime.deps.db.update(domains).set({ openTracking: false, clickTracking: false }).where(eq(domains.organizationId, org.organizationId));
}

/**
 * The re-engagement email before sunset, as the daily sunset run mails it (services/sunset/reengagement.ts):
 * an audience's published template to one member silent past the audience's setting, list mail from
 * the organization's domain; the domain's open tracking as given (what tells a reader from a silent one).
 */
async function reengagement(to: string, options: { opens: boolean }): Promise<void> {
  await app.runtime.deps.db.update(domains).set({ openTracking: options.opens, clickTracking: false }).where(eq(domains.organizationId, org.organizationId));
  const template = await app.request('POST', '/api/templates', {
    key: org.apiKey,
    body: { name: `We miss you (${to})`, subject: 'Do you still want our letters, {{ contact.first_name | default: "friend" }}?', html: fixture('reengagement.html') },
  });
  expect(template.status, template.text).toBe(201);
  const audienceId = (await app.request('POST', '/api/audiences', { key: org.apiKey, body: { name: `Tea letter for ${to}` } })).body.id as string;
  // The member joined seven months ago and has not opened or clicked since: due under a six-month setting.
  const now = app.clock.now();
  app.clock.set(new Date(now.getTime() - 210 * DAY_MS));
  const added = await app.request('POST', `/api/audiences/${audienceId}/contacts`, { key: org.apiKey, body: { email: to, first_name: 'Quinn' } });
  app.clock.set(now);
  expect(added.status, added.text).toBe(201);
  const setting = await app.request('PATCH', `/api/segments/${audienceId}`, {
    key: org.apiKey,
    body: { sunset_after_months: 6, sunset_reengagement: { template_id: template.body.id, from: 'Acme Tea <news@acme.example.com>' } },
  });
  expect(setting.status, setting.text).toBe(200);
  expect(await runSunset(app.runtime.deps)).toMatchObject({ reengaged: 1 });
  await app.runtime.deps.db.update(domains).set({ openTracking: false, clickTracking: false }).where(eq(domains.organizationId, org.organizationId));
}

/**
 * An automation's email, as its send_email step mails it (services/automations/runs/send.ts): the
 * customer's event for a contact (POST /events/send) starts the run, the engine's sweep takes the
 * step; list mail from the organization's domain with a published template and the event's payload.
 */
async function automationEmail(to: string): Promise<void> {
  const template = await app.request('POST', '/api/templates', {
    key: org.apiKey,
    body: { name: `Welcome (${to})`, subject: 'Welcome to Acme Tea, {{ contact.first_name | default: "friend" }}', html: fixture('newsletter.html'), from: 'Acme Tea <news@acme.example.com>' },
  });
  expect(template.status, template.text).toBe(201);
  const automation = await app.request('POST', '/api/automations', {
    key: org.apiKey,
    body: {
      name: `Welcome ${to}`,
      status: 'enabled',
      steps: [
        { key: 'start', type: 'trigger', config: { event_name: 'tea.subscribed' } },
        { key: 'welcome', type: 'send_email', config: { template: { id: template.body.id } } },
      ],
      connections: [{ from: 'start', to: 'welcome' }],
    },
  });
  expect(automation.status, automation.text).toBe(201);
  expect((await app.request('POST', '/api/contacts', { key: org.apiKey, body: { email: to, first_name: 'Robin' } })).status).toBe(201);
  const sent = await app.request('POST', '/api/events/send', { key: org.apiKey, body: { event: 'tea.subscribed', email: to, payload: { plan: 'monthly' } } });
  expect(sent.status, sent.text).toBe(202);
  expect(await sweepAutomationRuns(app.runtime.deps)).toMatchObject({ handled: 1 });
}

/** Relayed through the SMTP gateway with an HTML body only, as many applications' mailers send. */
async function relay(to: string): Promise<void> {
  const pass = await keyFor(app, org.organizationId, 'sending_access', 'live');
  const client = nodemailer.createTransport({ host: '127.0.0.1', port: gateway.ports.starttls!, requireTLS: true, auth: { user: 'apikey', pass }, tls: { rejectUnauthorized: false } });
  try {
    await client.sendMail({ from: 'Acme Tea <shop@acme.example.com>', to, subject: 'Your order 10482 is on its way', html: fixture('receipt.html') });
  } finally {
    client.close();
  }
}

interface Kind {
  name: string;
  /** The one recipient of its message: the row's message is the one that reached the MX for it. */
  to: string;
  /**
   * The open pixel is in it. SpamAssassin's HTML_IMAGE_ONLY_* rules score any image on under 3.2 KB
   * of text, so such a message is held only to "no malformed rule" and its score is shown, not bounded.
   */
  opensTracked?: boolean;
  /** The domain its DKIM signature and DMARC align on: the customer's, or the service's own for its own mail. */
  signedBy?: string;
  queue(to: string): Promise<void>;
}

/** The service's own domain (SYSTEM_MAIL_FROM), its records published as `system-mail:records` prints them. */
const SERVICE_DOMAIN = 'eumail.test';

/** A notice of the service's own, queued for the sending organization as its service queues it, with links of the same shape. */
function notice(kind: string, render: (appUrl: string) => RenderedEmail): (to: string) => Promise<void> {
  return async (to) => {
    const appUrl = app.runtime.deps.config.appUrl;
    await app.runtime.deps.db.transaction((tx) => enqueueSystemEmail(tx, app.runtime.deps, { organizationId: org.organizationId, kind, to, email: render(appUrl) }));
  };
}


/** One row per kind of message the service sends; one more kind is one more row. */
const KINDS: Kind[] = [
  { name: 'single, HTML and text', to: 'single@example.net', queue: (to) => send({ to, subject: 'Your order 10482', html: fixture('receipt.html'), text: fixture('receipt.txt') }) },
  {
    name: 'single, clicks tracked',
    to: 'clicks@example.net',
    queue: (to) => send({ to, subject: 'Your order 10482', html: fixture('receipt.html'), text: fixture('receipt.txt'), tracking: { clicks: true } }),
  },
  {
    name: 'single, opens and clicks tracked',
    to: 'tracked@example.net',
    opensTracked: true,
    queue: (to) => send({ to, subject: 'Your order 10482', html: fixture('receipt.html'), text: fixture('receipt.txt'), tracking: { opens: true, clicks: true } }),
  },
  { name: 'single, HTML only (text derived)', to: 'html-only@example.net', queue: (to) => send({ to, subject: 'Your order 10482', html: fixture('receipt.html') }) },
  {
    name: 'template, HTML only',
    to: 'template@example.net',
    async queue(to) {
      const template = await app.request('POST', '/api/templates', { key: org.apiKey, body: { name: 'Password reset', subject: 'Reset your Acme password, {{ name }}', html: fixture('password-reset.html') } });
      expect(template.status, template.text).toBe(201);
      await send({ to, template_id: template.body.id, variables: { name: 'Ada', code: 'f3a9c1d2e8b7' } });
    },
  },
  { name: 'broadcast', to: 'broadcast@example.net', queue: (to) => broadcast(to, { opens: false }) },
  { name: 'broadcast, opens tracked', to: 'broadcast-opens@example.net', opensTracked: true, queue: (to) => broadcast(to, { opens: true }) },
  { name: 'broadcast test copy', to: 'team@acme.example.com', queue: (to) => broadcast(to, { opens: false, testCopy: true }) },
  { name: 'SMTP relay, HTML only', to: 'relayed@example.net', queue: relay },
  {
    name: 'double opt-in confirmation (built-in text)',
    to: 'subscriber@example.net',
    // As POST /contacts with double_opt_in mails it (services/double-opt-in/content.ts), from the organization's domain.
    async queue(to) {
      const asked = await app.request('POST', '/api/contacts', { key: org.apiKey, body: { email: to, double_opt_in: true, confirmation: { from: 'Acme Tea <news@acme.example.com>' } } });
      expect(asked.status, asked.text).toBe(201);
    },
  },
  { name: 'sunset re-engagement', to: 'quiet@example.net', queue: (to) => reengagement(to, { opens: false }) },
  { name: 'automation email (send_email step)', to: 'welcomed@example.net', queue: automationEmail },
  { name: 'sunset re-engagement, opens tracked', to: 'quiet-opens@example.net', opensTracked: true, queue: (to) => reengagement(to, { opens: true }) },
  {
    name: 'system mail: confirm your address',
    to: 'newcomer@example.net',
    signedBy: SERVICE_DOMAIN,
    // As a sign-up mails it: the organization's owner asked to confirm the address.
    async queue(to) {
      const newcomer = await app.createOrg({ name: 'Newcomer Ltd', ownerEmail: to });
      await app.runtime.deps.db.transaction((tx) => mailConfirmationLink(tx, app.runtime.deps, { id: newcomer.organizationId, name: 'Newcomer Ltd', ownerEmail: to }));
    },
  },
  {
    name: 'system mail: password reset',
    to: 'forgetful@example.net',
    signedBy: SERVICE_DOMAIN,
    // As better-auth's sendResetPassword has it mailed (services/accounts/password-reset.ts): the person's, no organization.
    async queue(to) {
      await app.runtime.deps.db.transaction((tx) =>
        enqueueSystemEmail(tx, app.runtime.deps, {
          organizationId: null,
          kind: 'password_reset',
          to,
          email: passwordResetEmail({ email: to, url: resetLinkOf(app.runtime.deps.config.appUrl, 'Xk2m9Qp4Lr7Tz1Vb8Nc3Wd6F'), validMinutes: RESET_LINK_TTL_MS / 60_000 }),
        }),
      );
    },
  },
  {
    name: 'system mail: invitation',
    to: 'colleague@example.net',
    signedBy: SERVICE_DOMAIN,
    // As an owner's invitation mails it (services/members/invitations.ts), with a link of the same shape.
    async queue(to) {
      await app.runtime.deps.db.transaction((tx) =>
        enqueueSystemEmail(tx, app.runtime.deps, {
          organizationId: org.organizationId,
          kind: 'invitation',
          to,
          email: invitationEmail({
            organizationName: 'Acme Tea',
            invitedBy: 'owner@example.net',
            role: 'developer',
            url: `${app.runtime.deps.config.appUrl}${INVITATION_PATH}/${'q'.repeat(21)}${'Z'.repeat(22)}`,
            validDays: INVITATION_TTL_MS / DAY_MS,
          }),
        }),
      );
    },
  },
  {
    name: 'system mail: confirm a notification address',
    to: 'alerts@example.net',
    signedBy: SERVICE_DOMAIN,
    // services/organizations/notification-address.ts: the owner named another address for the service's notices.
    queue: notice('notification_confirmation', (appUrl) =>
      confirmNotificationAddressEmail({ email: 'alerts@example.net', organizationName: 'Acme Tea', url: `${appUrl}${CONFIRM_ADDRESS_PATH}/${'k'.repeat(43)}`, validHours: CONFIRMATION_LINK_TTL_MS / 3_600_000 }),
    ),
  },
  {
    name: 'system mail: organization deletion asked for',
    to: 'leaving@example.net',
    signedBy: SERVICE_DOMAIN,
    // services/organizations/deletion.ts
    queue: notice('organization_deletion', (appUrl) =>
      organizationDeletionEmail({ organizationName: 'Acme Tea', requestedBy: 'owner@example.net', eraseAfter: new Date(app.clock.now().getTime() + DELETION_GRACE_DAYS * DAY_MS), settingsUrl: `${appUrl}/settings` }),
    ),
  },
  {
    name: 'system mail: overage entered',
    to: 'overage@example.net',
    signedBy: SERVICE_DOMAIN,
    // services/plans/overage-notice.ts: the 10k plan's quota passed with overage on.
    queue: notice('overage-entered', (appUrl) => overageEnteredEmail({ organizationName: 'Acme Tea', quota: 10_000, monthLimit: 20_000, rateEurCents: 90, billingUrl: `${appUrl}/billing` })),
  },
  {
    name: 'system mail: webhook failing',
    to: 'hooks@example.net',
    signedBy: SERVICE_DOMAIN,
    // services/webhooks/alerts.ts
    queue: notice('webhook_failing', (appUrl) =>
      webhookFailingEmail({
        organizationName: 'Acme Tea',
        url: 'https://shop.acme.example.com/hooks/eumail',
        failingSince: new Date(app.clock.now().getTime() - DAY_MS),
        lastError: 'HTTP 502 from the endpoint',
        dashboardUrl: `${appUrl}/webhooks/wh_0123456789`,
      }),
    ),
  },
  {
    name: 'system mail: deliveries to a provider paused (to OPERATOR_EMAIL)',
    to: 'operator@example.net',
    signedBy: SERVICE_DOMAIN,
    // services/delivery-shaping/alerts.ts
    queue: notice('delivery_paused', () =>
      deliveryPausedEmail({
        provider: 'google',
        sendingDomain: 'acme.example.com',
        reply: '550 5.7.1 Our system has detected that this message is likely suspicious due to the very low reputation of the sending domain.',
        until: new Date(app.clock.now().getTime() + 60 * 60_000),
      }),
    ),
  },
  {
    name: 'system mail: broadcast held for review',
    to: 'held@example.net',
    signedBy: SERVICE_DOMAIN,
    // services/broadcasts/holds.ts
    queue: notice('broadcast-held', (appUrl) =>
      broadcastHeldEmail({ organizationName: 'Acme Tea', broadcastName: 'Autumn harvest', handed: 500, allowance: 500, broadcastUrl: `${appUrl}/broadcasts/bc_0123456789` }),
    ),
  },
  {
    name: 'system mail: broadcast resumed',
    to: 'resumed@example.net',
    signedBy: SERVICE_DOMAIN,
    queue: notice('broadcast-resumed', (appUrl) => broadcastResumedEmail({ organizationName: 'Acme Tea', broadcastName: 'Autumn harvest', broadcastUrl: `${appUrl}/broadcasts/bc_0123456789` })),
  },
  {
    name: 'system mail: renewal payment failed',
    to: 'accounts@example.net',
    signedBy: SERVICE_DOMAIN,
    // services/billing/payment-standing.ts
    queue: notice('payment_failed', (appUrl) => paymentFailedEmail({ organizationName: 'Acme Tea', graceUntil: new Date(app.clock.now().getTime() + 7 * DAY_MS), billingUrl: `${appUrl}/billing` })),
  },
  {
    name: 'system mail: restricted for non-payment',
    to: 'unpaid@example.net',
    signedBy: SERVICE_DOMAIN,
    queue: notice('restricted_for_non_payment', (appUrl) => restrictedForNonPaymentEmail({ organizationName: 'Acme Tea', failedAt: new Date(app.clock.now().getTime() - 7 * DAY_MS), billingUrl: `${appUrl}/billing` })),
  },
  {
    name: 'system mail: API key revoked',
    to: 'owner@example.net',
    signedBy: SERVICE_DOMAIN,
    // Revoking a live key mails the owner (org's owner: owner@example.net).
    async queue() {
      const created = await app.request('POST', '/api/api-keys', { key: org.apiKey, body: { name: 'Staging server' } });
      expect(created.status, created.text).toBe(201);
      expect((await app.request('DELETE', `/api/api-keys/${created.body.id}`, { key: org.apiKey })).status).toBe(200);
    },
  },
];

interface Received {
  raw: string;
  from: string;
  parsed: ParsedMail;
  verdict: SpamVerdict;
}
const received = new Map<string, Received>();

beforeAll(async () => {
  if (!spamassassin) return;
  mx = await startMxServer();
  app = await startTestApp({
    env: { APP_URL: 'https://mail.eumail.test', SYSTEM_MAIL_FROM: `EU Mail <no-reply@${SERVICE_DOMAIN}>`, SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example' },
  });
  gateway = await startTestGateway(app);
  org = await sendingOrg(app, { plan: '10k', ownerEmail: 'owner@example.net', createdAt: new Date(app.clock.now().getTime() - 60 * DAY_MS) });
  // The operator published what system-mail:records prints for the service's own domain.
  publishRecords(app.dns, ((await runAdminCommand(app.runtime.deps, 'system-mail:records', {})) as SystemMailRecords).records);
  await runAdminCommand(app.runtime.deps, 'org:review', { org: org.organizationId, approve: true });
  app.dns.a('mx.example.net', '127.0.0.1');
  app.dns.mx('acme.example.com', 'mx.example.net');
  // The return path's SPF includes MAIL_HOST's; its record names the loopback the MX sees us on.
  app.dns.txt('mx.eumail.example', 'v=spf1 ip4:127.0.0.1 -all');

  for (const kind of KINDS) await kind.queue(kind.to);
  for (let round = 0; round < 20 && mx.messages.length < KINDS.length; round++) {
    const handled = (await sweepEmailDispatch(app.runtime.deps)).handled + (await sweepSystemEmails(app.runtime.deps));
    if (handled === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const arrived = KINDS.map((kind) => mx.messages.find((message) => message.to.includes(kind.to)));
  const verdicts = await scoreMessages(arrived.filter((message) => message !== undefined).map((message) => message.raw));
  let next = 0;
  for (const [index, kind] of KINDS.entries()) {
    const message = arrived[index];
    if (message) received.set(kind.name, { raw: message.raw, from: message.from, parsed: await simpleParser(message.raw), verdict: verdicts[next++]! });
  }
  if (process.env.DELIVERABILITY_DUMP) for (const [name, r] of received) console.info(`=== ${name}\n${r.raw}`);
  // What docs/delivery.md shows, measured.
  console.info(
    KINDS.map((kind) => {
      const verdict = received.get(kind.name)?.verdict;
      if (!verdict) return `| ${kind.name} | not received | |`;
      const counted = countedRules(verdict);
      return `| ${kind.name} | ${scoreOf(counted).toFixed(3)} | ${counted.map(([rule, points]) => `${rule} ${points}`).join(', ')} |`;
    }).join('\n'),
  );
}, 120_000);

afterAll(async () => {
  if (!spamassassin) return;
  closeRelayPools();
  await gateway.close();
  await app.close();
  await mx.close();
});

describe.skipIf(!spamassassin).each(KINDS)('$name', (kind) => {
  const message = () => {
    const arrived = received.get(kind.name);
    if (!arrived) throw new Error(`no message reached the MX for ${kind.to}`);
    return arrived;
  };

  it('has a text part and a complete HTML document', () => {
    const { parsed } = message();
    expect((parsed.text ?? '').trim()).not.toBe('');
    expect(parsed.html).toMatch(/^<!doctype html>\s*<html[\s>]/i);
    expect(parsed.html).toMatch(/<title>[^<]+<\/title>/);
    // The open pixel, when tracked, is inside the body of the wrapped document.
    if (kind.opensTracked) expect(parsed.html).toMatch(/<img src="https:\/\/mail\.eumail\.test\/t\/o\/[^"]+"[^>]*>\s*<\/body>/);
  });

  it('trips no rule that says it is built wrong', () => {
    const malformed = Object.keys(message().verdict.rules).filter((rule) => MALFORMED.some((pattern) => pattern.test(rule)));
    expect(malformed).toEqual([]);
  });

  it.skipIf(kind.opensTracked)(`scores at most ${MAX_SCORE} on realistic content`, () => {
    const counted = countedRules(message().verdict);
    expect(scoreOf(counted), JSON.stringify(Object.fromEntries(counted))).toBeLessThanOrEqual(MAX_SCORE);
  });

  it('passes DKIM and DMARC for the domain it is sent from', async () => {
    const { raw, from } = message();
    const auth = await authenticateReceived(raw, { dns: app.dns, sender: from });
    expect(auth.dkim.results.map((result) => [result.signingDomain, result.status.result])).toEqual([[kind.signedBy ?? 'acme.example.com', 'pass']]);
    expect(auth.dmarc && auth.dmarc.status.result).toBe('pass');
  });
});
