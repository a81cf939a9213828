import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { emails, systemEmails } from '@/db/schema';
import type { SmtpGateway } from '@/server/mail/gateway-server';
import { receiveEvent, sweepAutomationRuns } from '@/server/services/automations';
import { sweepBroadcasts } from '@/server/services/broadcasts/fan-out';
import { organizationPrincipal } from '@/server/services/shared/principal';
import { ADMIT_VIAS, type AdmitVia } from '@/server/services/emails/accept/vias';
import { DAY_MS } from '@/server/services/shared/time';
import { runSunset } from '@/server/services/sunset/run';
import { startTestApp, type TestApp } from './support/app';
import { startTestGateway } from './support/gateway';
import { keyFor } from './support/keys';
import { sample } from './support/metrics';
import { reviewedSendingOrg } from './support/sending-org';

// Issue 30 point 1: every way mail enters goes through the one admit door
// (server/services/emails/accept/admit.ts). The door counts what it stores by way in
// (eumail_admitted_total{via}, the process's own /metrics registry); each way in is driven from
// its real edge (REST, the SMTP gateway, the broadcast sweep, system mail from the API), and its
// count at the door must equal the rows that appeared in the tables behind it. Mail stored beside
// the door would show as rows the door never counted.
let app: TestApp;
let gateway: SmtpGateway;
beforeAll(async () => {
  app = await startTestApp();
  gateway = await startTestGateway(app);
});
afterAll(async () => {
  await gateway.close();
  await app.close();
});

let org: { organizationId: string; apiKey: string; domainId: string };
beforeEach(async () => {
  await app.reset();
  org = await reviewedSendingOrg(app);
});

interface Snapshot {
  admitted: Record<AdmitVia, number>;
  emails: number;
  systemEmails: number;
}

async function snapshot(): Promise<Snapshot> {
  const { body } = await app.runtime.deps.metrics.render();
  const admitted = Object.fromEntries(ADMIT_VIAS.map((via) => [via, sample(body, 'eumail_admitted_total', { via }) ?? 0])) as Record<AdmitVia, number>;
  const [stored] = await app.runtime.deps.db.select({ n: count() }).from(emails);
  const [queued] = await app.runtime.deps.db.select({ n: count() }).from(systemEmails);
  return { admitted, emails: stored!.n, systemEmails: queued!.n };
}

/** Runs one way in; asserts the door counted exactly the rows it stored, under that way's label only. */
async function throughTheDoor(via: AdmitVia, send: () => Promise<void>): Promise<number> {
  const before = await snapshot();
  await send();
  const after = await snapshot();
  const rows = via === 'system' ? after.systemEmails - before.systemEmails : after.emails - before.emails;
  const other = via === 'system' ? after.emails - before.emails : after.systemEmails - before.systemEmails;
  expect(rows, `${via}: rows stored`).toBeGreaterThan(0);
  expect(after.admitted[via] - before.admitted[via], `${via}: counted at the door`).toBe(rows);
  for (const label of ADMIT_VIAS) if (label !== via) expect(after.admitted[label] - before.admitted[label], `${via} counted as ${label}`).toBe(0);
  expect(other, `${via}: rows stored in the other table`).toBe(0);
  return rows;
}

const request = async (method: string, path: string, body?: unknown, key = org.apiKey) => {
  const response = await app.request(method, `/api${path}`, { key, body });
  expect(response.status, response.text).toBeLessThan(300);
  return response.body;
};

const message = (to = 'ada@example.net') => ({ from: 'Acme <billing@acme.example.com>', to, subject: 'Receipt', text: 'Thanks' });

describe('the one admit door', () => {
  it('is where every way in stores its mail: API single and batch, SMTP relay, broadcast, test copies, confirmations, re-engagement emails, automations, system mail', async () => {
    const exercised = new Set<AdmitVia>();
    const way = async (via: AdmitVia, send: () => Promise<void>) => {
      await throughTheDoor(via, send);
      exercised.add(via);
    };

    await way('api', async () => {
      await request('POST', '/emails', message());
    });
    await way('batch', async () => {
      const { data } = await request('POST', '/emails/batch', [message('a@example.net'), message('b@example.net'), message('c@example.net')]);
      expect(data.map((outcome: { id?: string }) => typeof outcome.id)).toEqual(['string', 'string', 'string']);
    });
    await way('smtp', async () => {
      const client = nodemailer.createTransport({
        host: '127.0.0.1',
        port: gateway.ports.starttls!,
        requireTLS: true,
        auth: { user: 'apikey', pass: await keyFor(app, org.organizationId, 'sending_access', 'live') },
        tls: { rejectUnauthorized: false },
      });
      try {
        expect((await client.sendMail({ from: 'Acme <billing@acme.example.com>', to: 'ada@example.net', subject: 'Relayed', text: 'Thanks' })).response).toMatch(/^250 /);
      } finally {
        client.close();
      }
    });

    const audience = await request('POST', '/audiences', { name: 'Newsletter' });
    await request('POST', `/audiences/${audience.id}/contacts/batch`, { contacts: ['ada', 'bob', 'cyd'].map((name) => ({ email: `${name}@example.net`, name })) });
    const broadcast = await request('POST', '/broadcasts', {
      audience_id: audience.id,
      from: 'Acme News <news@acme.example.com>',
      subject: 'News for {{ name }}',
      html: '<p>Hi {{ name }}</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>',
    });
    app.dns.mx('acme.test', 'mx.acme.test'); // the owner's mailbox takes mail
    await way('broadcast_test', async () => {
      const { data } = await request('POST', `/broadcasts/${broadcast.id}/test`, { to: ['owner@acme.test'] });
      expect(data).toHaveLength(1);
    });
    await way('broadcast', async () => {
      await request('POST', `/broadcasts/${broadcast.id}/send`);
      for (let i = 0; i < 10 && (await request('GET', `/broadcasts/${broadcast.id}`)).status !== 'sent'; i += 1) await sweepBroadcasts(app.runtime.deps);
      expect((await request('GET', `/broadcasts/${broadcast.id}`)).counts.queued).toBe(3);
    });

    await way('confirmation', async () => {
      // A double opt-in's confirmation email (docs/consent.md).
      await request('POST', '/contacts', { email: 'dee@example.net', double_opt_in: true, confirmation: { from: 'Acme News <news@acme.example.com>' } });
    });

    await way('reengagement', async () => {
      // The re-engagement email before sunset (docs/audiences.md): the members silent for a month, by the daily run.
      const template = await request('POST', '/templates', { name: 'Miss you', subject: 'Still there?', html: '<p>Hi</p><p><a href="{{ unsubscribe_url }}">Leave</a></p>' });
      await request('PATCH', `/segments/${audience.id}`, { sunset_after_months: 1, sunset_reengagement: { template_id: template.id, from: 'Acme News <news@acme.example.com>' } });
      app.clock.advance(40 * DAY_MS);
      expect(await runSunset(app.runtime.deps)).toMatchObject({ reengaged: 3 });
    });

    await way('automation', async () => {
      // An automation's send_email step (docs/automations.md): a custom event starts a run, the engine's sweep takes its steps.
      const template = await request('POST', '/templates', { name: 'Hello', subject: 'Hello', html: '<p>Hi</p>', from: 'Acme News <news@acme.example.com>' });
      const automation = await request('POST', '/automations', {
        name: 'Hello',
        status: 'enabled',
        steps: [
          { key: 'start', type: 'trigger', config: { event_name: 'user.created' } },
          { key: 'hello', type: 'send_email', config: { template: { id: template.id } } },
        ],
        connections: [{ from: 'start', to: 'hello' }],
      });
      expect(automation.status).toBe('enabled');
      await request('POST', '/contacts', { email: 'eve@example.net' });
      await receiveEvent(app.runtime.deps, organizationPrincipal(org.organizationId, '10k'), { event: 'user.created', contact: { email: 'eve@example.net' }, payload: {} });
      expect(await sweepAutomationRuns(app.runtime.deps)).toMatchObject({ handled: 1 });
    });

    // The service's own mail: a revoked live key (the relay's) emails the owner.
    const listed = await request('GET', '/emails?limit=100');
    // What counts sending, leaving out the key count the revocation itself changes.
    const sendingUsage = async () => {
      const { caps, ...usage } = await request('GET', '/usage');
      return { ...usage, caps: { ...caps, apiKeys: undefined } };
    };
    const usage = await sendingUsage();
    await way('system', async () => {
      const keys = await request('GET', '/api-keys');
      const revoked = keys.data.find((key: { name: string }) => key.name === 'sending_access-live');
      await request('DELETE', `/api-keys/${revoked.id}`);
    });
    // Behind the same door, yet never a customer's email: not in their list, not against their limits.
    expect((await request('GET', '/emails?limit=100')).data).toEqual(listed.data);
    expect(await sendingUsage()).toEqual(usage);

    expect([...exercised].sort()).toEqual([...ADMIT_VIAS].sort());
    // And nothing anywhere else: every row of both tables was counted by the door.
    const end = await snapshot();
    expect(Object.values(end.admitted).reduce((a, b) => a + b, 0)).toBe(end.emails + end.systemEmails);
  });

  it('is what a refusal comes from too: nothing refused is stored, and nothing is counted', async () => {
    const before = await snapshot();
    const refused = await app.request('POST', '/api/emails', { key: org.apiKey, body: { ...message(), from: 'Acme <billing@not-ours.example>' } });
    expect(refused.status).toBe(403);
    const batch = await request('POST', '/emails/batch', [{ ...message(), from: 'Acme <billing@not-ours.example>' }, message()]);
    expect(batch.data[0]).toMatchObject({ code: 'DOMAIN_NOT_VERIFIED' });
    const after = await snapshot();
    expect(after.emails - before.emails).toBe(1);
    expect(after.admitted.batch - before.admitted.batch).toBe(1);
    expect(after.admitted.api - before.admitted.api).toBe(0);
    const [row] = await app.runtime.deps.db.select({ id: emails.id }).from(emails).where(eq(emails.id, batch.data[1].id));
    expect(row).toBeDefined();
  });
});
