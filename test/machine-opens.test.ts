import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { domains, emails } from '@/db/schema';
import { closeOutboundConnections } from '@/server/net/outbound';
import { sweepBroadcasts } from '@/server/services/broadcasts/fan-out';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { burstLinks, judgeClick, judgeOpen, type MachineReason } from '@/server/services/tracking/machine';
import { clickToken, openToken } from '@/server/services/tracking/tokens';
import { sweepWebhookDeliveries } from '@/server/services/webhooks/deliver';
import { startTestApp, type TestApp } from './support/app';
import { reviewedSendingOrg } from './support/sending-org';
import { startMxServer, type MxServer } from './support/smtp-mx';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

/*
 * Request shapes as the proxies and scanners send them. The User-Agent strings of Apple MPP,
 * Gmail's image proxy and content sampling, Yahoo's proxy, Office's link check and the mail
 * clients are the ones their documentation and the threads cited in docs/tracking.md show; the
 * gateways' (Proofpoint, Mimecast, Barracuda) vary by product and version, so only the name they
 * carry is relied on. Addresses are documentation ranges (RFC 5737, RFC 3849) or loopback.
 */
const UA = {
  appleMpp: 'Mozilla/5.0',
  gmailProxy: 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
  gmailSampling: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/42.0.2311.135 Safari/537.36 Edge/12.246 Gmail-content-sampling',
  yahooProxy: 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html',
  msOffice: 'Mozilla/4.0 (compatible; ms-office; MSOffice 16)',
  outlookDesktop: 'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17029; Pro)',
  appleMail: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)',
  iphoneMail: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  thunderbird: 'Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Thunderbird/115.5.0',
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  cubotAndroid: 'Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36',
  headless: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.6099.71 Safari/537.36',
  proofpoint: 'Mozilla/5.0 (compatible; Proofpoint URL Defense)',
  mimecast: 'Mimecast URL Protect',
  barracuda: 'Mozilla/5.0 (compatible; Barracuda Sentinel)',
  pythonRequests: 'python-requests/2.31.0',
  curl: 'curl/8.5.0',
  goHttp: 'Go-http-client/1.1',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

const DELIVERED = new Date('2026-11-02T09:00:00Z');
const later = (ms: number) => new Date(DELIVERED.getTime() + ms);
const NETWORKS = ['192.0.2.0/24', '2001:db8:5::/48'];

describe('judgeOpen', () => {
  const cases: Array<[string, string | null, string | null, MachineReason | null]> = [
    ['Apple Mail Privacy Protection', UA.appleMpp, '203.0.113.9', 'apple_mail_privacy_protection'],
    ["Gmail's image proxy", UA.gmailProxy, '203.0.113.9', 'gmail_image_proxy'],
    ["Yahoo's proxy", UA.yahooProxy, '203.0.113.9', 'yahoo_mail_proxy'],
    ['no User-Agent', null, '203.0.113.9', 'no_user_agent'],
    ['a blank User-Agent', '   ', '203.0.113.9', 'no_user_agent'],
    ['a headless browser', UA.headless, '203.0.113.9', 'headless_browser'],
    ['Mimecast', UA.mimecast, '203.0.113.9', 'mimecast'],
    ['curl', UA.curl, '203.0.113.9', 'automated_client'],
    ['a crawler', UA.googlebot, '203.0.113.9', 'crawler'],
    ['a listed network (IPv4)', UA.chromeWindows, '192.0.2.44', 'known_machine_network'],
    ['a listed network (IPv4-mapped)', UA.chromeWindows, '::ffff:192.0.2.44', 'known_machine_network'],
    ['a listed network (IPv6)', UA.chromeWindows, '2001:db8:5:1::7', 'known_machine_network'],
    ['Outlook for Windows (a reader opening it)', UA.outlookDesktop, '203.0.113.9', null],
    ["Office's token on an open (Outlook's image fetch)", UA.msOffice, '203.0.113.9', null],
    ['Apple Mail without MPP', UA.appleMail, '203.0.113.9', null],
    ['iPhone Mail', UA.iphoneMail, '203.0.113.9', null],
    ['Thunderbird', UA.thunderbird, '198.51.100.20', null],
    ['a phone whose model ends in "bot"', UA.cubotAndroid, '198.51.100.20', null],
    ['an unlisted network', UA.chromeWindows, '192.0.3.1', null],
    ['no address at all', UA.chromeWindows, null, null],
  ];
  it.each(cases)('%s', (_name, userAgent, address, reason) => {
    expect(judgeOpen({ userAgent, address, at: later(60_000), deliveredAt: DELIVERED, machineNetworks: NETWORKS })).toEqual({ machine: reason !== null, reason });
  });

  it('takes an open within 2 s of the delivery for a gateway, and not one after or with no delivery recorded', () => {
    const open = (at: Date, deliveredAt: Date | null) => judgeOpen({ userAgent: UA.appleMail, address: '198.51.100.20', at, deliveredAt });
    expect(open(later(1_999), DELIVERED)).toEqual({ machine: true, reason: 'opened_at_delivery' });
    expect(open(later(2_000), DELIVERED)).toEqual({ machine: false, reason: null });
    expect(open(later(500), null)).toEqual({ machine: false, reason: null });
  });

  it('names the User-Agent before the network, and looks at no network when none is listed', () => {
    expect(judgeOpen({ userAgent: UA.appleMpp, address: '192.0.2.1', at: later(60_000), deliveredAt: null, machineNetworks: NETWORKS }).reason).toBe('apple_mail_privacy_protection');
    expect(judgeOpen({ userAgent: UA.chromeWindows, address: '192.0.2.1', at: later(60_000), deliveredAt: null }).machine).toBe(false);
  });
});

describe('judgeClick', () => {
  const click = (userAgent: string | null, overrides: Partial<Parameters<typeof judgeClick>[0]> = {}) =>
    judgeClick({ userAgent, address: '198.51.100.20', at: later(120_000), deliveredAt: DELIVERED, machineNetworks: NETWORKS, url: 'https://shop.example/a', linkCount: 5, recentClicksOfEmail: [], ...overrides });

  const cases: Array<[string, string | null, MachineReason | null]> = [
    ["Office's link check (Safe Links, Office apps)", UA.msOffice, 'microsoft_office_link_check'],
    ['a bare Mozilla/5.0', UA.appleMpp, 'bare_user_agent'],
    ["Gmail's content sampling", UA.gmailSampling, 'gmail_content_sampling'],
    ['Proofpoint', UA.proofpoint, 'proofpoint'],
    ['Mimecast', UA.mimecast, 'mimecast'],
    ['Barracuda', UA.barracuda, 'barracuda'],
    ['python-requests', UA.pythonRequests, 'automated_client'],
    ['Go', UA.goHttp, 'automated_client'],
    ['curl', UA.curl, 'automated_client'],
    ['headless Chrome', UA.headless, 'headless_browser'],
    ['no User-Agent', null, 'no_user_agent'],
    ['Chrome on Windows', UA.chromeWindows, null],
    ['Safari on an iPhone', UA.iphoneMail, null],
    ['Outlook for Windows', UA.outlookDesktop, null],
  ];
  it.each(cases)('%s', (_name, userAgent, reason) => {
    expect(click(userAgent)).toEqual({ machine: reason !== null, reason });
  });

  it('takes a browser from a listed network for a scanner (a sandbox with a real Chrome)', () => {
    expect(click(UA.chromeWindows, { address: '192.0.2.200' })).toEqual({ machine: true, reason: 'known_machine_network' });
    expect(click(UA.chromeWindows, { address: '127.0.0.1' })).toEqual({ machine: false, reason: null });
  });

  it('takes a click within 10 s of the delivery for a scanner', () => {
    expect(click(UA.chromeWindows, { at: later(0) })).toEqual({ machine: true, reason: 'clicked_at_delivery' });
    expect(click(UA.chromeWindows, { at: later(9_999) })).toEqual({ machine: true, reason: 'clicked_at_delivery' });
    expect(click(UA.chromeWindows, { at: later(10_000) })).toEqual({ machine: false, reason: null });
    expect(click(UA.chromeWindows, { at: later(3_000), deliveredAt: null })).toEqual({ machine: false, reason: null });
  });

  it('takes a burst over every link (or three distinct ones) for a scanner', () => {
    const at = later(120_000);
    const before = (ms: number, url: string) => ({ url, at: new Date(at.getTime() - ms) });
    const every = (recent: Array<{ url: string; at: Date }>, linkCount = 5) => click(UA.chromeWindows, { at, recentClicksOfEmail: recent, linkCount }).reason;
    // Three distinct links, each within 5 s of the next.
    expect(every([before(2_000, 'https://shop.example/b'), before(6_500, 'https://shop.example/c')])).toBe('every_link_at_once');
    // A two-link email, both clicked within seconds: every link.
    expect(every([before(3_000, 'https://shop.example/b')], 2)).toBe('every_link_at_once');
    // Two links of five: a person may well do that.
    expect(every([before(3_000, 'https://shop.example/b')])).toBeNull();
    // A gap over 5 s breaks the burst.
    expect(every([before(2_000, 'https://shop.example/b'), before(7_500, 'https://shop.example/c')])).toBeNull();
    // The same link again (a double click) is one link.
    expect(every([before(500, 'https://shop.example/a'), before(1_000, 'https://shop.example/a')])).toBeNull();
    // A one-link email is never a burst.
    expect(every([before(500, 'https://shop.example/a')], 1)).toBeNull();
    expect(burstLinks('https://shop.example/a', at, [{ url: 'https://shop.example/z', at: new Date(at.getTime() + 1_000) }])).toBe(1);
  });
});

const LINKS = ['https://shop.example.org/a', 'https://shop.example.org/b', 'https://shop.example.org/c', 'https://shop.example.org/d'];
const HTML = `<html><body><p>Hello</p>${LINKS.map((url, i) => `<a href="${url}">Link ${i}</a> `).join('')}</body></html>`;

describe('through /t/ (real HTTP, the test clock)', () => {
  let app: TestApp;
  let mx: MxServer;
  let receiver: WebhookReceiver;
  let org: { organizationId: string; apiKey: string };

  beforeAll(async () => {
    mx = await startMxServer();
    receiver = await startWebhookReceiver();
    app = await startTestApp({
      env: {
        APP_URL: 'https://mail.eumail.test',
        SMTP_MX_PORT: String(mx.port),
        SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
        WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
        MAIL_HOST: 'mx.eumail.example',
        // Loopback is the operator's proxy, so X-Forwarded-For carries a documentation address.
        TRUSTED_PROXY_CIDRS: '127.0.0.0/8',
        TRACKING_MACHINE_CIDRS: '192.0.2.0/24',
      },
    });
  });
  afterAll(async () => {
    await closeOutboundConnections();
    await app.close();
    await receiver.close();
    await mx.close();
  });
  beforeEach(async () => {
    await app.reset();
    mx.messages.length = 0;
    receiver.received.length = 0;
    org = await reviewedSendingOrg(app);
    app.dns.a('mx.example.net', '127.0.0.1');
    app.dns.a('hooks.example.com', '127.0.0.1');
  });

  const key = () => app.runtime.deps.encryptionKey;
  const hit = (path: string, userAgent: string, forwardedFor?: string) =>
    fetch(`${app.url}${path}`, { redirect: 'manual', headers: { 'user-agent': userAgent, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) } });
  const open = async (id: string, userAgent: string, forwardedFor?: string) => {
    const response = await hit(`/t/o/${openToken(key(), id)}`, userAgent, forwardedFor);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  };
  const clickOn = async (id: string, index: number, userAgent: string) => {
    const response = await hit(`/t/c/${clickToken(key(), id, index)}`, userAgent);
    // A machine's click is redirected like anyone's.
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(LINKS[index]);
  };
  const tracked = async (id: string) =>
    ((await app.request('GET', `/api/emails/${id}`, { key: org.apiKey })).body.events as Array<{ type: string; data: Record<string, unknown> }>)
      .filter((event) => event.type === 'email.opened' || event.type === 'email.clicked')
      .map((event) => ({ type: event.type, ...event.data }) as { type: string; url?: string; machineReason?: string } & Record<string, unknown>);

  /** A live email with four tracked links, sent to the loopback MX: its delivery is recorded at the clock's now. */
  async function delivered(): Promise<string> {
    const sent = await app.request('POST', '/api/emails', {
      key: org.apiKey,
      body: { from: 'Acme <hello@acme.example.com>', to: 'ada@example.net', subject: 'Deals', html: HTML, tracking: { opens: true, clicks: true } },
    });
    expect(sent.status, sent.text).toBe(200);
    expect((await sweepEmailDispatch(app.runtime.deps)).handled).toBe(1);
    const [row] = await app.runtime.deps.db.select({ status: emails.status, links: emails.trackedLinks }).from(emails).where(eq(emails.id, sent.body.id));
    expect(row).toEqual({ status: 'delivered', links: LINKS });
    return sent.body.id;
  }

  it('records data.machine and its reason on GET /emails/{id} and in the webhook payload', async () => {
    const hook = (await app.request('POST', '/api/webhooks', { key: org.apiKey, body: { url: `http://hooks.example.com:${receiver.port}/hook`, events: ['email.opened', 'email.clicked'] } })).body;
    const id = await delivered();
    app.clock.advance(60_000);
    await open(id, UA.appleMpp);
    // A person's open right after the proxy's is not absorbed as a repeat of it.
    await open(id, UA.iphoneMail);
    // Past the minute in which a repeat by a machine is absorbed.
    app.clock.advance(61_000);
    await open(id, UA.chromeWindows, '192.0.2.77');
    await clickOn(id, 0, UA.msOffice);
    await clickOn(id, 0, UA.chromeWindows);
    expect(await tracked(id)).toEqual([
      { type: 'email.opened', userAgent: UA.appleMpp, ip: '127.0.0.0', machine: true, machineReason: 'apple_mail_privacy_protection' },
      { type: 'email.opened', userAgent: UA.iphoneMail, ip: '127.0.0.0', machine: false },
      { type: 'email.opened', userAgent: UA.chromeWindows, ip: '192.0.2.0', machine: true, machineReason: 'known_machine_network' },
      { type: 'email.clicked', url: LINKS[0], userAgent: UA.msOffice, ip: '127.0.0.0', machine: true, machineReason: 'microsoft_office_link_check' },
      { type: 'email.clicked', url: LINKS[0], userAgent: UA.chromeWindows, ip: '127.0.0.0', machine: false },
    ]);

    await sweepWebhookDeliveries(app.runtime.deps);
    const payloads = receiver.received.map((received) => receiver.verify(received, hook.secret));
    expect(payloads).toHaveLength(5);
    expect(payloads.map((p) => [p.type, p.data.machine, p.data.machineReason ?? null])).toEqual(
      expect.arrayContaining([
        ['email.opened', true, 'apple_mail_privacy_protection'],
        ['email.opened', false, null],
        ['email.opened', true, 'known_machine_network'],
        ['email.clicked', true, 'microsoft_office_link_check'],
        ['email.clicked', false, null],
      ]),
    );
    expect(payloads[0]!.data).toMatchObject({ emailId: id, subject: 'Deals' });
  });

  it('takes a click seconds after the delivery, and a burst over the links, for a scanner', async () => {
    const id = await delivered();
    app.clock.advance(3_000);
    await clickOn(id, 0, UA.chromeWindows);
    app.clock.advance(60_000);
    await clickOn(id, 1, UA.chromeWindows);
    app.clock.advance(2_000);
    await clickOn(id, 2, UA.chromeWindows);
    app.clock.advance(2_000);
    await clickOn(id, 3, UA.chromeWindows);
    app.clock.advance(60_000);
    await clickOn(id, 0, UA.chromeWindows);
    expect((await tracked(id)).map((event) => [event.url, event.machineReason ?? null])).toEqual([
      [LINKS[0], 'clicked_at_delivery'],
      // The first click of a burst is a person's as far as anything could tell when it came.
      [LINKS[1], null],
      [LINKS[2], null],
      [LINKS[3], 'every_link_at_once'],
      [LINKS[0], null],
    ]);
  });

  it('counts a broadcast\'s emails opened and clicked by people apart from those only machines did', async () => {
    const audienceId = (await app.request('POST', '/api/audiences', { key: org.apiKey, body: { name: 'List' } })).body.id;
    const addresses = ['ada@example.net', 'grace@example.net', 'linus@example.net'];
    await app.request('POST', `/api/audiences/${audienceId}/contacts/batch`, { key: org.apiKey, body: { contacts: addresses.map((email) => ({ email })) } });
    await app.runtime.deps.db.update(domains).set({ openTracking: true, clickTracking: true }).where(eq(domains.organizationId, org.organizationId));
    const created = await app.request('POST', '/api/broadcasts', {
      key: org.apiKey,
      body: { audience_id: audienceId, from: 'Acme News <news@acme.example.com>', subject: 'News', html: `<p>${LINKS.map((url) => `<a href="${url}">x</a>`).join(' ')} <a href="{{ unsubscribe_url }}">Unsubscribe</a></p>` },
    });
    expect(created.status, created.text).toBe(201);
    expect((await app.request('POST', `/api/broadcasts/${created.body.id}/send`, { key: org.apiKey })).status).toBe(200);
    while ((await sweepBroadcasts(app.runtime.deps)).outcomes.more);
    expect((await sweepEmailDispatch(app.runtime.deps)).handled).toBe(3);
    const rows = await app.runtime.deps.db.select({ id: emails.id, to: emails.to }).from(emails).where(eq(emails.broadcastId, created.body.id));
    const emailOf = new Map(rows.map((row) => [row.to[0]!, row.id]));
    const [ada, grace, linus] = addresses.map((address) => emailOf.get(address)!);
    app.clock.advance(60_000);

    // Ada: Apple's proxy, then Ada herself. Grace: only Gmail's proxy. Linus: only a scanner's click.
    await open(ada!, UA.appleMpp);
    await open(ada!, UA.iphoneMail);
    await open(grace!, UA.gmailProxy);
    await clickOn(linus!, 0, UA.pythonRequests);
    await clickOn(ada!, 1, UA.iphoneMail);
    app.clock.advance(120_000);
    await open(ada!, UA.iphoneMail);
    const counts = (await app.request('GET', `/api/broadcasts/${created.body.id}`, { key: org.apiKey })).body.counts;
    expect(counts).toMatchObject({ delivered: 3, opened: 2, openedHuman: 1, openedMachine: 1, clicked: 2, clickedHuman: 1, clickedMachine: 1 });
    // A person's later open of Grace's email moves it from machines only to people.
    await open(grace!, UA.thunderbird);
    expect((await app.request('GET', `/api/broadcasts/${created.body.id}`, { key: org.apiKey })).body.counts).toMatchObject({ opened: 2, openedHuman: 2, openedMachine: 0 });
  });
});
