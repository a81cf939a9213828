import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { audienceMemberships, audiences, auditEvents, consentEntries, contacts, domains, emails, organizations } from '@/db/schema';
import { closeOutboundConnections } from '@/server/net/outbound';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { DAY_MS } from '@/server/services/shared/time';
import { REENGAGEMENT_BATCH } from '@/server/services/sunset/reengagement';
import { runSunset } from '@/server/services/sunset/run';
import { openToken } from '@/server/services/tracking/tokens';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';
import { reviewedSendingOrg } from './support/sending-org';
import { startMxServer, type MxServer } from './support/smtp-mx';

// The re-engagement email before sunset (docs/audiences.md, "Re-engagement"): the run under the test
// clock mails each member due once, as list mail through the admit door, and sets it sunset only
// after the grace period with no sign of a person; the refusals of the setting and of the run.

const PERSON = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const FROM = 'Acme News <news@acme.example.com>';
const HTML = '<p>Hello {{ contact.first_name | default: "there" }}</p>';

describe('the re-engagement email before sunset (real HTTP, the test clock)', () => {
  let app: TestApp;
  let mx: MxServer;
  let org: { organizationId: string; apiKey: string };

  beforeAll(async () => {
    mx = await startMxServer();
    app = await startTestApp({
      env: { APP_URL: 'https://mail.eumail.test', SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example' },
    });
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
    await app.runtime.deps.db.update(domains).set({ openTracking: true, clickTracking: true }).where(eq(domains.organizationId, org.organizationId));
  });

  const db = () => app.runtime.deps.db;
  const call = (method: string, path: string, body?: unknown, key = org.apiKey) => app.request(method, `/api${path}`, { key, body });
  const later = (days: number) => app.clock.advance(days * DAY_MS);

  async function publishedTemplate(html = `${HTML}<p><a href="{{ unsubscribe_url }}">Leave</a></p>`): Promise<string> {
    const created = await call('POST', '/templates', { name: 'We miss you', subject: 'Still there, {{ contact.first_name | default: "friend" }}?', html });
    expect(created.status, created.text).toBe(201);
    expect((await call('POST', `/templates/${created.body.id}/publish`)).status).toBeLessThan(300);
    return created.body.id;
  }
  async function audienceWith(addresses: string[]): Promise<{ id: string; contact: Record<string, string> }> {
    const created = await call('POST', '/audiences', { name: 'News' });
    expect(created.status, created.text).toBe(201);
    const contact: Record<string, string> = {};
    for (const email of addresses) {
      const added = await call('POST', `/audiences/${created.body.id}/contacts`, { email, first_name: email.split('@')[0] });
      expect(added.status, added.text).toBe(201);
      contact[email.split('@')[0]!] = added.body.id;
    }
    return { id: created.body.id, contact };
  }
  const reengagementEmails = () =>
    db()
      .select({ id: emails.id, to: emails.to, subject: emails.subject, status: emails.status, tags: emails.tags, contactId: emails.contactId })
      .from(emails)
      .orderBy(asc(emails.id))
      .then((rows) => rows.filter((row) => row.tags.some((tag) => tag.name === 'sunset')));
  const sunsetIn = async (audienceId: string) =>
    (
      await db()
        .select({ email: contacts.email })
        .from(audienceMemberships)
        .innerJoin(contacts, eq(contacts.id, audienceMemberships.contactId))
        .where(and(eq(audienceMemberships.audienceId, audienceId), isNotNull(audienceMemberships.sunsetAt)))
        .orderBy(asc(contacts.email))
    ).map((row) => row.email);

  it('mails each member due once, then sets sunset only those no person showed for within the grace period', async () => {
    const template = await publishedTemplate();
    const news = await audienceWith(['ann@example.net', 'bob@example.net']);
    // cat@ joins 100 days later: it is measured from joining, and is not due when the others are.
    later(100);
    const cat = await call('POST', `/audiences/${news.id}/contacts`, { email: 'cat@example.net' });
    expect(cat.status).toBe(201);
    later(100);

    const setting = await call('PATCH', `/segments/${news.id}`, { sunset_after_months: 6, sunset_reengagement: { template_id: template, from: FROM, grace_days: 7 } });
    expect(setting.status, setting.text).toBe(200);
    expect(setting.body.sunsetReengagement).toEqual({ templateId: template, from: FROM, graceDays: 7, error: null });
    expect((await call('GET', `/audiences/${news.id}`)).body.sunsetReengagement).toEqual({ templateId: template, from: FROM, graceDays: 7, error: null });
    const [audit] = await db().select({ details: auditEvents.details }).from(auditEvents).where(eq(auditEvents.action, 'audience.updated'));
    expect(audit!.details).toMatchObject({ fields: ['sunsetAfterMonths', 'sunsetReengagement'] });

    // The first run warns ann@ and bob@ and sets nobody sunset.
    expect(await runSunset(app.runtime.deps)).toEqual({ audiences: 1, sunset: 0, lifted: 0, reengaged: 2 });
    expect(await sunsetIn(news.id)).toEqual([]);
    const sent = await reengagementEmails();
    expect(sent.map((row) => row.to[0]).sort()).toEqual(['ann@example.net', 'bob@example.net']);
    expect(sent.find((row) => row.to[0] === 'ann@example.net')!.subject).toBe('Still there, ann?');
    expect((await call('GET', `/audiences/${news.id}/sunset-preview`)).body).toMatchObject({ wouldSunset: 2, sunsetNow: 0, reengagedNow: 2 });
    // Delivered as list mail: one-click unsubscribe from this audience, bulk precedence, the tag.
    await sweepEmailDispatch(app.runtime.deps);
    const delivered = mx.messages.filter((message) => message.raw.includes('Still there'));
    expect(delivered).toHaveLength(2);
    for (const message of delivered) {
      expect(message.raw).toMatch(/List-Unsubscribe:\s+<https:\/\/mail\.eumail\.test\/unsubscribe\/[A-Za-z0-9_-]+>,\s+<mailto:u-/);
      expect(message.raw).toMatch(/Feedback-ID:\s+list:[0-9a-f-]+:broadcast:eumail/);
      expect(message.raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      expect(message.raw).toContain('Precedence: bulk');
    }
    expect((await call('GET', `/emails/${sent[0]!.id}`)).body.tags).toEqual([{ name: 'sunset', value: 're-engagement' }]);

    // A run the next day mails nobody twice.
    later(1);
    expect(await runSunset(app.runtime.deps)).toEqual({ audiences: 1, sunset: 0, lifted: 0, reengaged: 0 });
    expect(await reengagementEmails()).toHaveLength(2);

    // bob@ opens the re-engagement email: a person. Past the grace period only ann@ is set sunset.
    app.clock.advance(60_000);
    const bobs = sent.find((row) => row.to[0] === 'bob@example.net')!;
    const open = await fetch(`${app.url}/t/o/${openToken(app.runtime.deps.encryptionKey, bobs.id)}`, { headers: { 'user-agent': PERSON } });
    await open.arrayBuffer();
    later(6);
    expect(await runSunset(app.runtime.deps)).toEqual({ audiences: 1, sunset: 1, lifted: 0, reengaged: 0 });
    expect(await sunsetIn(news.id)).toEqual(['ann@example.net']);
    const ledger = await db().select({ action: consentEntries.action, via: consentEntries.via }).from(consentEntries).where(and(eq(consentEntries.contactId, news.contact.ann!), eq(consentEntries.action, 'sunset')));
    expect(ledger).toEqual([{ action: 'sunset', via: 'sunset' }]);

    // Silent again for six months, bob@ is warned afresh (the open ended the first warning), with cat@.
    later(190);
    expect(await runSunset(app.runtime.deps)).toMatchObject({ reengaged: 2, sunset: 0 });
    expect((await reengagementEmails()).filter((row) => row.to[0] === 'bob@example.net')).toHaveLength(2);
  });

  it('warns a suppressed member without mailing it, so it is sunset in its turn', async () => {
    const template = await publishedTemplate();
    const news = await audienceWith(['ann@example.net', 'sup@example.net']);
    expect((await call('POST', '/suppressions', { email: 'sup@example.net' })).status).toBeLessThan(300);
    later(200);
    expect((await call('PATCH', `/segments/${news.id}`, { sunset_after_months: 6, sunset_reengagement: { template_id: template, from: FROM, grace_days: 3 } })).status).toBe(200);
    expect(await runSunset(app.runtime.deps)).toMatchObject({ reengaged: 2 });
    expect((await reengagementEmails()).map((row) => row.to[0])).toEqual(['ann@example.net']);
    later(3);
    expect(await runSunset(app.runtime.deps)).toMatchObject({ sunset: 2, reengaged: 0 });
  });

  it('warns a large audience in batches, each member once', async () => {
    const template = await publishedTemplate();
    const news = (await call('POST', '/audiences', { name: 'Big' })).body.id as string;
    const count = REENGAGEMENT_BATCH + 20;
    for (let start = 0; start < count; start += 100) {
      const body = Array.from({ length: Math.min(100, count - start) }, (_, index) => ({ email: `p${start + index}@example.net` }));
      const added = await call('POST', `/audiences/${news}/contacts/batch`, { contacts: body });
      expect(added.status, added.text).toBeLessThan(300);
    }
    later(200);
    expect((await call('PATCH', `/segments/${news}`, { sunset_after_months: 6, sunset_reengagement: { template_id: template, from: FROM } })).status).toBe(200);
    expect(await runSunset(app.runtime.deps)).toMatchObject({ reengaged: count });
    const sent = await reengagementEmails();
    expect(new Set(sent.map((row) => row.to[0])).size).toBe(count);
    expect(sent).toHaveLength(count);
    // The default grace period is 14 days.
    expect((await call('GET', `/segments/${news}`)).body.sunsetReengagement.graceDays).toBe(14);
  });

  it('stops at a refusal, records why on the audience, and sets nobody sunset it could not warn', async () => {
    const template = await publishedTemplate();
    const news = await audienceWith(['ann@example.net', 'bob@example.net']);
    later(200);
    expect((await call('PATCH', `/segments/${news.id}`, { sunset_after_months: 6, sunset_reengagement: { template_id: template, from: FROM, grace_days: 1 } })).status).toBe(200);

    // The sender's domain is no longer verified.
    await db().update(domains).set({ status: 'failed' }).where(eq(domains.organizationId, org.organizationId));
    expect(await runSunset(app.runtime.deps)).toEqual({ audiences: 1, sunset: 0, lifted: 0, reengaged: 0 });
    expect((await call('GET', `/audiences/${news.id}`)).body.sunsetReengagement.error).toMatch(/acme\.example\.com is not a verified domain/);
    later(2);
    expect(await runSunset(app.runtime.deps)).toMatchObject({ sunset: 0, reengaged: 0 });
    expect(await sunsetIn(news.id)).toEqual([]);

    // Verified again: the next run warns both and clears the error.
    await db().update(domains).set({ status: 'verified' }).where(eq(domains.organizationId, org.organizationId));
    expect(await runSunset(app.runtime.deps)).toMatchObject({ reengaged: 2 });
    expect((await call('GET', `/audiences/${news.id}`)).body.sunsetReengagement.error).toBeNull();

    // The template in use is not deleted (409 naming the audience); should it go anyway (the foreign
    // key's backstop), the setting shows it and the run sends nothing and says why.
    const refusedDelete = await call('DELETE', `/templates/${template}`);
    expect(refusedDelete.status).toBe(409);
    expect(refusedDelete.body.error).toContain('re-engagement email before sunset of the audience "News"');
    await db().update(audiences).set({ sunsetReengagementTemplateId: null }).where(eq(audiences.id, news.id));
    const read = (await call('GET', `/audiences/${news.id}`)).body.sunsetReengagement;
    expect(read).toMatchObject({ templateId: null, from: FROM, graceDays: 1 });

    // The plan no longer sends list mail: the run says so and mails nothing.
    await db().update(organizations).set({ plan: 'free' }).where(eq(organizations.id, org.organizationId));
    later(1);
    const before = (await reengagementEmails()).length;
    await runSunset(app.runtime.deps);
    expect((await reengagementEmails()).length).toBe(before);
    expect((await call('GET', `/audiences/${news.id}`)).body.sunsetReengagement.error).toMatch(/deleted|paid plan/);
  });

  it('refuses a setting it could not send: another organization\'s or an unpublished template, an unverified sender, a free plan, a test key', async () => {
    const template = await publishedTemplate();
    const news = (await call('POST', '/audiences', { name: 'News' })).body.id as string;
    const patch = (reengagement: unknown, key = org.apiKey) => call('PATCH', `/segments/${news}`, { sunset_after_months: 6, sunset_reengagement: reengagement }, key);

    for (const grace of [0, 91, 1.5, true, '7']) {
      const refused = await patch({ template_id: template, from: FROM, grace_days: grace });
      expect(refused.status, JSON.stringify(grace)).toBe(400);
      expect(refused.body).toEqual({ error: expect.stringContaining('grace_days'), code: 'VALIDATION_ERROR' });
    }
    expect((await patch({ template_id: template })).body).toEqual({ error: expect.stringContaining('from'), code: 'VALIDATION_ERROR' });
    expect((await patch({ template_id: 'nope', from: FROM })).status).toBe(400);
    expect((await patch({ template_id: template, from: FROM, extra: 1 })).status).toBe(400);
    const badFrom = await patch({ template_id: template, from: 'not an address' });
    expect(badFrom.body).toEqual({ error: expect.stringContaining('sunset_reengagement.from'), code: 'VALIDATION_ERROR' });
    const unverified = await patch({ template_id: template, from: 'news@elsewhere.example' });
    expect(unverified.status).toBe(403);
    expect(unverified.body.code).toBe('DOMAIN_NOT_VERIFIED');

    const drafted = await call('POST', '/templates', { name: 'Draft', subject: 'Hi', html: '<p>Hi</p>', draft: true });
    expect(drafted.status, drafted.text).toBe(201);
    const unpublished = await patch({ template_id: drafted.body.id, from: FROM });
    expect(unpublished.body).toEqual({ error: expect.stringContaining('never been published'), code: 'VALIDATION_ERROR' });

    const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
    const foreignTemplate = (await app.request('POST', '/api/templates', { key: other.apiKey, body: { name: 'Theirs', subject: 'Hi', html: '<p>Hi</p>' } })).body.id as string;
    const foreign = await patch({ template_id: foreignTemplate, from: FROM });
    expect(foreign.body).toEqual({ error: expect.stringContaining('sunset_reengagement.template_id'), code: 'VALIDATION_ERROR' });
    expect((await app.request('PATCH', `/api/segments/${news}`, { key: other.apiKey, body: { sunset_reengagement: null } })).status).toBe(404);

    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    expect((await patch({ template_id: template, from: FROM }, testKey)).status).toBe(403);

    await db().update(organizations).set({ plan: 'free' }).where(eq(organizations.id, org.organizationId));
    const free = await patch({ template_id: template, from: FROM });
    expect(free.status).toBe(403);
    expect(free.body.code).toBe('PLAN_LIMIT_EXCEEDED');
    // Turning it off is always allowed.
    const off = await patch(null);
    expect(off.status, off.text).toBe(200);
    expect(off.body.sunsetReengagement).toBeNull();

    // Creating with it works as updating does.
    await db().update(organizations).set({ plan: '10k' }).where(eq(organizations.id, org.organizationId));
    const created = await call('POST', '/audiences', { name: 'Fresh', sunset_after_months: 3, sunset_reengagement: { template_id: template, from: FROM } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.sunsetReengagement).toEqual({ templateId: template, from: FROM, graceDays: 14, error: null });
    const segment = await call('POST', '/segments', { name: 'Fresh', sunset_after_months: 3, sunset_reengagement: { template_id: template, from: FROM, grace_days: 30 } });
    expect(segment.body.sunsetReengagement).toMatchObject({ graceDays: 30 });
  });
});
