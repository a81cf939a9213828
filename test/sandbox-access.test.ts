import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { startTestApp, type TestApp } from './support/app';
import { signUpPerson } from './support/dashboard-session';
import { keyFor } from './support/keys';
import { sendingOrg } from './support/sending-org';
import { startMxServer, type MxServer } from './support/smtp-mx';

// Issue 29, point 1: who may send from the sandbox domain that exists by default, as a table of
// real sends through POST /emails. SANDBOX_DOMAIN is unset: the test app's APP_URL is an IP
// literal, so the sandbox is `sandbox.localhost` (docs/domains.md, "Sandbox domain").
const SANDBOX = 'sandbox.localhost';
const OWNER = 'me@owner.example.net';

let app: TestApp;
let mx: MxServer;
beforeAll(async () => {
  mx = await startMxServer();
  app = await startTestApp({ env: { SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example', TEST_MODE_STEP_MS: '1000' } });
});
afterAll(async () => {
  await app.close();
  await mx.close();
});

beforeEach(async () => {
  await app.reset();
  mx.messages.length = 0;
  // Every recipient domain of the table has an MX on loopback: an answer is never "undeliverable".
  app.dns.a('mx.example.net', '127.0.0.1');
  for (const domain of ['owner.example.net', 'example.net']) app.dns.mx(domain, 'mx.example.net');
});

const send = (key: string, to: string | string[]) =>
  app.request('POST', '/api/emails', { key, body: { from: `Onboarding <onboarding@${SANDBOX}>`, to, subject: 'Hello from the sandbox', text: 'It works.' } });

/** Runs the pipeline (live delivery, or the simulated steps of a test email) until nothing is due. */
async function settle(): Promise<void> {
  for (let step = 0; step < 5; step += 1) {
    await sweepEmailDispatch(app.runtime.deps);
    app.clock.advance(1_000);
  }
}

const historyOf = async (id: string, key: string): Promise<string[]> => {
  const detail = await app.request('GET', `/api/emails/${id}`, { key });
  return detail.body.events.map((event: { type: string; recipient: string | null }) => (event.recipient ? `${event.type} ${event.recipient}` : event.type));
};

describe('who may send from the sandbox domain', () => {
  it('a test key, not pinned, to any address: 200, simulated, nothing leaves; bounced@ and complained@ simulate', async () => {
    const org = await app.createOrg({ ownerEmail: OWNER });
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const sent = await send(testKey, ['ada@example.net', 'bounced@example.net', 'complained@example.net']);
    expect(sent.status, sent.text).toBe(200);
    await settle();
    expect(await historyOf(sent.body.id, testKey)).toEqual([
      'email.queued',
      'email.sent',
      'email.delivered ada@example.net',
      'email.bounced bounced@example.net',
      'email.delivered complained@example.net',
      'email.complained complained@example.net',
    ]);
    expect(mx.messages).toHaveLength(0);
  });

  it('a test key of an owner not confirmed yet: 200 too (test keys work meanwhile)', async () => {
    const person = await signUpPerson(app, 'new@owner.example.net');
    const testKey = await keyFor(app, person.organizationId, 'full_access', 'test');
    expect((await send(testKey, 'anyone@example.net')).status).toBe(200);
  });

  it("a live key, not pinned, owner confirmed, to the owner's address: 200, delivered to the owner's MX", async () => {
    const org = await app.createOrg({ ownerEmail: OWNER });
    const sent = await send(org.apiKey, `Me <${OWNER.toUpperCase()}>`);
    expect(sent.status, sent.text).toBe(200);
    await settle();
    expect((await app.request('GET', `/api/emails/${sent.body.id}`, { key: org.apiKey })).body.status).toBe('delivered');
    expect(mx.messages.map((message) => message.to.map((to) => to.toLowerCase()))).toEqual([[OWNER]]);
    expect(mx.messages[0]!.raw).toMatch(new RegExp(`^DKIM-Signature: .*d=${SANDBOX.replace('.', '\\.')}`, 'm'));
  });

  it('a live key, not pinned, to anyone else (alone or beside the owner): 403 FORBIDDEN', async () => {
    const org = await app.createOrg({ ownerEmail: OWNER });
    for (const to of ['ada@example.net', [OWNER, 'ada@example.net']]) {
      const refused = await send(org.apiKey, to);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: expect.stringContaining('only to the account owner'), code: 'FORBIDDEN' });
    }
  });

  it("a live key, owner not confirmed, to anyone (the owner's own address too): 403 ACCOUNT_RESTRICTED", async () => {
    const person = await signUpPerson(app, OWNER);
    const liveKey = await keyFor(app, person.organizationId, 'full_access', 'live');
    for (const to of [OWNER, 'ada@example.net']) {
      const refused = await send(liveKey, to);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('ACCOUNT_RESTRICTED');
    }
  });

  it.each(['live', 'test'] as const)('a %s key pinned to a domain, to anyone: 403 FORBIDDEN', async (mode) => {
    const org = await sendingOrg(app, { ownerEmail: OWNER });
    const pinned = await keyFor(app, org.organizationId, 'sending_access', mode, org.domainId);
    for (const to of [OWNER, 'ada@example.net']) {
      const refused = await send(pinned, to);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: expect.stringContaining(`not from ${SANDBOX}`), code: 'FORBIDDEN' });
    }
    await settle();
    expect(mx.messages).toHaveLength(0);
  });
});
