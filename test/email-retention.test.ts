import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { domains, emailAttachments, emails, events } from '@/db/schema';
import { applyRetention } from '@/server/services/emails/retention';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

const DAY = 24 * 3_600_000;
const pdf = Buffer.from('%PDF-1.4 receipt body');

async function orgWithEmail(plan: string) {
  const org = await app.createOrg({ plan });
  const domain = await app.request('POST', '/api/domains', { key: org.apiKey, body: { name: `${plan}.example.com` } });
  await app.runtime.deps.db.update(domains).set({ status: 'verified', verifiedAt: app.clock.now() }).where(eq(domains.id, domain.body.id));
  app.dns.mx('example.net', 'mx.example.net');
  const sent = await app.request('POST', '/api/emails', {
    key: org.apiKey,
    body: {
      from: `hello@${plan}.example.com`,
      to: 'ada@example.net',
      subject: 'Receipt',
      text: 'Attached',
      attachments: [{ filename: 'reçu 1.pdf', content: pdf.toString('base64'), content_type: 'application/pdf' }],
    },
  });
  const detail = await app.request('GET', `/api/emails/${sent.body.id}`, { key: org.apiKey });
  return { ...org, emailId: sent.body.id as string, attachmentId: detail.body.attachments[0].id as string };
}

describe('GET /emails/{id}/attachments/{attachmentId}', () => {
  it('downloads the file for 30 days, then answers 410 ATTACHMENT_EXPIRED while the email still lists it', async () => {
    const { apiKey, emailId, attachmentId, organizationId } = await orgWithEmail('10k');
    const path = `/api/emails/${emailId}/attachments/${attachmentId}`;
    const response = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="re_u 1.pdf"; filename*=UTF-8''re%C3%A7u%201.pdf`);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(pdf);

    const sending = await keyFor(app, organizationId, 'sending_access', 'live');
    expect((await app.request('GET', path, { key: sending })).status).toBe(403);
    expect((await app.request('GET', path, { key: (await app.createOrg({ name: 'Other' })).apiKey })).status).toBe(404);

    app.clock.advance(30 * DAY);
    const expired = await app.request('GET', path, { key: apiKey });
    expect(expired.status).toBe(410);
    expect(expired.body).toEqual({ error: 'reçu 1.pdf was kept for 30 days and has been deleted', code: 'ATTACHMENT_EXPIRED' });
    expect((await applyRetention(app.runtime.deps)).attachmentsExpired).toBe(1);
    const [row] = await app.runtime.deps.db.select().from(emailAttachments);
    expect(row!.content).toBeNull();
    const listed = (await app.request('GET', `/api/emails/${emailId}`, { key: apiKey })).body.attachments;
    expect(listed).toEqual([{ id: attachmentId, filename: 'reçu 1.pdf', contentType: 'application/pdf', size: pdf.length, expired: true }]);
  });
});

describe('log retention', () => {
  it('deletes the record and rendered body after 30 days on 30-day plans and after 90 on 90-day plans', async () => {
    const short = await orgWithEmail('10k');
    const long = await orgWithEmail('250k');
    app.clock.advance(30 * DAY + 1);
    const first = await applyRetention(app.runtime.deps);
    expect(first.emailsDeleted).toBe(1);
    // The event log follows the same retention: the short plan's domain and email events go.
    expect(first.eventsDeleted).toBeGreaterThanOrEqual(2);
    expect((await app.runtime.deps.db.select().from(events)).every((event) => event.organizationId === long.organizationId)).toBe(true);
    expect((await app.request('GET', `/api/emails/${short.emailId}`, { key: short.apiKey })).status).toBe(404);
    expect((await app.request('GET', `/api/emails/${long.emailId}`, { key: long.apiKey })).status).toBe(200);
    app.clock.advance(60 * DAY);
    await applyRetention(app.runtime.deps);
    expect(await app.runtime.deps.db.select().from(emails)).toHaveLength(0);
    expect(await app.runtime.deps.db.select().from(emailAttachments)).toHaveLength(0);
    expect(await app.runtime.deps.db.select().from(events)).toHaveLength(0);
  });
});
