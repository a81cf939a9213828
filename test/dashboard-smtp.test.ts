import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { emails } from '@/db/schema';
import { loadConfig } from '@/server/config';
import { smtpSettings } from '@/server/services/api-keys/smtp-settings';
import { startTestApp, type TestApp } from './support/app';
import { dashboardCaller } from './support/dashboard-session';
import { keyFor } from './support/keys';
import { sendingOrg } from './support/sending-org';

/**
 * What the dashboard shows of the SMTP gateway: an email's `source` (through the real REST API,
 * the row marked as the gateway and a broadcast's fan-out mark it) and `apiKeys.smtpSettings`,
 * the settings beside a sending key (dashboard only, asked with a signed-in session).
 */
let app: TestApp;
beforeAll(async () => {
  // The gateway's listeners are not started here (server/main.ts does that): only its settings are read.
  app = await startTestApp({ env: { MAIL_HOST: 'mx.eumail.test', SMTP_GATEWAY_PORT: '2587', SMTP_GATEWAY_TLS_PORT: '0', SMTP_TLS_CERT: '/etc/eumail/smtp.pem', SMTP_TLS_KEY: '/etc/eumail/smtp.key' } });
});
afterAll(() => app.close());
beforeEach(() => app.reset());

describe("an email's source", () => {
  it('is api for POST /emails, smtp when the gateway relayed it, broadcast for a broadcast message: on the email and in the list', async () => {
    const org = await sendingOrg(app);
    const send = async (subject: string) => {
      const response = await app.request('POST', '/api/emails', { key: org.apiKey, body: { from: 'Acme <hello@acme.example.com>', to: 'ada@example.net', subject, text: 'Hi' } });
      expect(response.status, response.text).toBe(200);
      return response.body.id as string;
    };
    const viaApi = await send('Through the API');
    const viaSmtp = await send('Through the gateway');
    const ofBroadcast = await send('Of a broadcast');
    // What the gateway's relay and a broadcast's fan-out write on the rows they store.
    await app.runtime.deps.db.update(emails).set({ submittedVia: 'smtp' }).where(eq(emails.id, viaSmtp));
    await app.runtime.deps.db.update(emails).set({ broadcastId: randomUUID() }).where(eq(emails.id, ofBroadcast));

    const sourceOf = async (id: string) => {
      const response = await app.request('GET', `/api/emails/${id}`, { key: org.apiKey });
      expect(response.status, response.text).toBe(200);
      return response.body.source;
    };
    expect(await sourceOf(viaApi)).toBe('api');
    expect(await sourceOf(viaSmtp)).toBe('smtp');
    expect(await sourceOf(ofBroadcast)).toBe('broadcast');

    const list = await app.request('GET', '/api/emails', { key: org.apiKey });
    expect(Object.fromEntries(list.body.data.map((email: { id: string; source: string }) => [email.id, email.source]))).toEqual({
      [viaApi]: 'api',
      [viaSmtp]: 'smtp',
      [ofBroadcast]: 'broadcast',
    });
  });
});

async function signedInCaller() {
  const response = await fetch(`${app.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
    body: JSON.stringify({ name: 'Ada', email: 'ada@example.test', password: 'correct horse battery' }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const cookie = response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return dashboardCaller(app, cookie);
}

describe('apiKeys.smtpSettings', () => {
  it("answers the signed-in dashboard with the service's mail host, its ports (a port set to 0 is off) and the configured certificate", async () => {
    const caller = await signedInCaller();
    expect(await caller.apiKeys.smtpSettings()).toEqual({ host: 'mx.eumail.test', starttlsPort: 2587, implicitTlsPort: null, username: 'apikey', certificate: 'configured' });
  });

  it('is not for a sending_access key, whose calls are the send paths alone', async () => {
    const org = await app.createOrg();
    const sendingKey = await keyFor(app, org.organizationId, 'sending_access', 'live');
    const refused = await app.request('GET', '/api/trpc/apiKeys.smtpSettings', { key: sendingKey });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.error.message).toMatch(/sending_access: it may only send email/);
  });

  it('says self-signed without a certificate, and both ports off when the gateway is off', () => {
    const base = { BETTER_AUTH_SECRET: 'test-secret-test-secret-test-secret-00', NODE_ENV: 'test' as const, MAIL_HOST: 'mail.example.eu' };
    expect(smtpSettings(loadConfig(base))).toEqual({ host: 'mail.example.eu', starttlsPort: 2587, implicitTlsPort: 2465, username: 'apikey', certificate: 'self-signed' });
    expect(smtpSettings(loadConfig({ ...base, SMTP_GATEWAY_PORT: '0', SMTP_GATEWAY_TLS_PORT: '0' }))).toMatchObject({ starttlsPort: null, implicitTlsPort: null });
  });
});
