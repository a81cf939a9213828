import net, { type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateDkimKeyPair, type DkimKeyPair } from '@/server/crypto/dkim-keys';
import { closeRelayPools, deliver, type DeliveryOptions } from '@/server/mail/delivery';
import { buildMessage, envelopeRecipients, type MessageInput } from '@/server/mail/message';
import { clearMxDns } from '@/server/mail/mx-dns';
import { parseVerpAddress, verpAddress, verpKeyFrom } from '@/server/mail/verp';
import { dkimValue, splitTxt } from '@/server/services/domains/records';
import { guardConnections, type ConnectGuard } from './support/connect-guard';
import { startDnsServer, type DnsServer } from './support/dns';
import { selfSignedCertificate } from './support/loopback-https';
import { authenticateReceived } from './support/mail-auth';
import { startMxServer, type MxServer } from './support/smtp-mx';

// Every MX name below resolves, through the loopback DNS server, to 127.0.0.1 and nothing else.
const EMAIL_ID = '01920000-0000-7000-8000-000000000001';
const verpKey = verpKeyFrom(Buffer.alloc(32, 7));
const refusals = new Map<string, { code: number; message: string }>();
const dataRefusals = new Map<string, { code: number; message: string }>();

let dns: DnsServer;
let mx: MxServer;
let relay: MxServer;
let key: DkimKeyPair;
let guard: ConnectGuard;
let options: DeliveryOptions;

const input = (overrides: Partial<MessageInput> = {}): MessageInput => ({
  emailId: EMAIL_ID,
  domain: { name: 'acme.test', returnPath: 'send', dkim: { selector: key.selector, privateKeyPem: key.privateKeyPem } },
  from: 'Acme Billing <billing@acme.test>',
  to: ['Ann <ann@example.test>'],
  subject: 'Your receipt',
  html: '<p>Thanks!</p>',
  text: 'Thanks!',
  date: new Date('2026-03-01T10:00:00Z'),
  verpKey,
  ...overrides,
});

const verify = (raw: string, sender: string) => authenticateReceived(raw, { dns, sender });

const signedHeadersOf = (raw: string) => {
  const signature = /^DKIM-Signature:([\s\S]*?)\r?\n(?![ \t])/im.exec(raw)?.[1] ?? '';
  return (/\bh=([^;]+)/.exec(signature.replace(/\s+/g, ''))?.[1] ?? '').toLowerCase().split(':');
};

beforeAll(async () => {
  guard = guardConnections();
  key = await generateDkimKeyPair();
  dns = await startDnsServer();
  const certificate = await selfSignedCertificate(['mx.example.test']);
  mx = await startMxServer({ rcpt: (address) => refusals.get(address) ?? null, data: (to) => dataRefusals.get(to[0]!) ?? null, tls: certificate });
  relay = await startMxServer({ rcpt: (address) => refusals.get(address) ?? null });
  options = {
    dnsServers: [dns.address],
    mxPort: mx.port,
    heloName: 'mail.eumail.test',
    allowPrivateCidrs: ['127.0.0.1/32'],
    timeouts: { connectMs: 2_000, greetingMs: 2_000, idleMs: 5_000, sessionMs: 10_000 },
  };
  dns.txt(`${key.selector}._domainkey.acme.test`, ...splitTxt(dkimValue(key.publicKey)));
  dns.mx('example.test', 'mx.example.test');
  dns.a('mx.example.test', '127.0.0.1');
});

afterEach(() => {
  refusals.clear();
  dataRefusals.clear();
  mx.messages.length = 0;
  relay.messages.length = 0;
});

afterAll(async () => {
  closeRelayPools();
  await Promise.all([mx?.close(), relay?.close()]);
  dns?.close();
  guard?.restore();
  // Nothing in this file may ever leave loopback.
  expect(guard.attempts.every((attempt) => attempt.host === '127.0.0.1')).toBe(true);
});

describe('a message delivered to the MX', () => {
  it('is DKIM-signed over the headers that matter, with a per-recipient VERP return path', async () => {
    const message = buildMessage(
      input({
        to: ['Ann <ann@example.test>'],
        cc: ['bob@example.test'],
        bcc: ['audit@example.test'],
        replyTo: ['help@acme.test'],
        headers: { 'X-Campaign': 'spring', 'Message-ID': '<forged@elsewhere>' },
        attachments: [{ filename: 'receipt.txt', content: Buffer.from('total: 10 EUR'), contentType: 'text/plain' }],
        listUnsubscribe: { url: 'https://app.eumail.test/unsubscribe/abc', mailto: 'unsubscribe@acme.test', oneClick: true },
        feedback: { organizationId: 'org1', stream: 'transactional' },
      }),
    );
    const outcomes = await deliver(message, options);

    expect(outcomes.map((o) => [o.recipient, o.outcome, o.smtpCode])).toEqual([
      ['ann@example.test', 'delivered', 250],
      ['bob@example.test', 'delivered', 250],
      ['audit@example.test', 'delivered', 250],
    ]);
    expect(outcomes[0]!.response).toMatch(/^mx\.example\.test \[127\.0\.0\.1\] \(TLS\): 250 /);
    expect(outcomes[0]).toMatchObject({ host: 'mx.example.test', via: 'mx' });

    // One transaction per recipient, each with its own VERP MAIL FROM that maps back to (email, recipient).
    expect(mx.messages).toHaveLength(3);
    for (const [index, received] of mx.messages.entries()) {
      expect(received.secure).toBe(true);
      expect(received.to).toEqual([envelopeRecipients(['ann@example.test'], ['bob@example.test'], ['audit@example.test'])[index]]);
      expect(received.from).toBe(verpAddress(verpKey, EMAIL_ID, index, 'send.acme.test'));
      expect(received.from).toMatch(/^bounces\+01920000-0000-7000-8000-000000000001\.\d\.[0-9a-f]{10}@send\.acme\.test$/);
      expect(parseVerpAddress(verpKey, received.from)).toEqual({ emailId: EMAIL_ID, recipientIndex: index, domain: 'send.acme.test' });
    }

    const raw = mx.messages[0]!.raw;
    const headers = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r?\n[ \t]+/g, ' ');
    expect(headers).toMatch(/^Message-ID: <01920000-0000-7000-8000-000000000001@acme\.test>\r?$/m);
    expect(raw).not.toContain('forged@elsewhere');
    expect(headers).not.toMatch(/^Bcc:/im);
    expect(headers).toMatch(/^List-Unsubscribe: <https:\/\/app\.eumail\.test\/unsubscribe\/abc>, <mailto:unsubscribe@acme\.test>\r?$/m);
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    expect(headers).toMatch(/^Feedback-ID: transactional:org1:transactional:eumail\r?$/m);
    expect(headers).toMatch(/^X-Campaign: spring\r?$/m);

    const signed = signedHeadersOf(raw);
    for (const header of ['from', 'to', 'cc', 'reply-to', 'subject', 'date', 'message-id', 'mime-version', 'content-type', 'list-unsubscribe', 'list-unsubscribe-post', 'feedback-id']) {
      expect(signed).toContain(header);
    }

    const result = await verify(raw, mx.messages[0]!.from);
    expect(result.dkim.results).toHaveLength(1);
    expect(result.dkim.results[0]!.status.result).toBe('pass');
    expect(result.dkim.results[0]!.signingDomain).toBe('acme.test');
    expect(result.dkim.results[0]!.selector).toBe(key.selector);
    // The signature is worth something: changing a signed header breaks it.
    const tampered = await verify(raw.replace('Subject: Your receipt', 'Subject: Your receipt now'), mx.messages[0]!.from);
    expect(tampered.dkim.results[0]!.status.result).toBe('fail');
  });

  it('bounces a recipient refused with 550 at RCPT and still delivers to the other', async () => {
    refusals.set('nobody@example.test', { code: 550, message: '5.1.1 No such user' });
    const outcomes = await deliver(buildMessage(input({ to: ['nobody@example.test', 'ann@example.test'] })), options);
    expect(outcomes[0]).toMatchObject({ recipient: 'nobody@example.test', outcome: 'bounced', smtpCode: 550, host: 'mx.example.test' });
    expect(outcomes[0]!.response).toMatch(/^mx\.example\.test \[127\.0\.0\.1\] \(TLS\): 550 5\.1\.1 No such user/);
    expect(outcomes[1]).toMatchObject({ recipient: 'ann@example.test', outcome: 'delivered', smtpCode: 250 });
    expect(mx.messages.map((m) => m.to)).toEqual([['ann@example.test']]);
  });

  it('defers a recipient answered 451 (greylisting)', async () => {
    refusals.set('ann@example.test', { code: 451, message: '4.7.1 Greylisted, try again later' });
    const [outcome] = await deliver(buildMessage(input()), options);
    expect(outcome).toMatchObject({ outcome: 'deferred', smtpCode: 451 });
    expect(outcome!.response).toContain('451 4.7.1 Greylisted');
  });

  it('bounces a message refused with 554 after DATA', async () => {
    dataRefusals.set('ann@example.test', { code: 554, message: '5.7.1 Message rejected as spam' });
    const [outcome] = await deliver(buildMessage(input()), options);
    expect(outcome).toMatchObject({ outcome: 'bounced', smtpCode: 554 });
    expect(outcome!.response).toContain('5.7.1 Message rejected as spam');
  });

  it('falls back to the next MX when the first has no address', async () => {
    dns.mx('fallback.test', 'gone.fallback.test', 10);
    dns.mx('fallback.test', 'mx.example.test', 20);
    const [outcome] = await deliver(buildMessage(input({ to: ['ann@fallback.test'] })), options);
    expect(outcome).toMatchObject({ outcome: 'delivered', host: 'mx.example.test' });
  });

  it('uses the domain itself when it has no MX but an A record (implicit MX)', async () => {
    dns.a('implicit.test', '127.0.0.1');
    const [outcome] = await deliver(buildMessage(input({ to: ['ann@implicit.test'] })), options);
    expect(outcome).toMatchObject({ outcome: 'delivered', host: 'implicit.test' });
  });
});

describe('when no server takes the message', () => {
  it('defers on connection refused', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const [outcome] = await deliver(buildMessage(input()), { ...options, mxPort: port });
    expect(outcome).toMatchObject({ outcome: 'deferred', host: 'mx.example.test' });
    expect(outcome!.smtpCode).toBeUndefined();
    expect(outcome!.response).toMatch(/^mx\.example\.test \[127\.0\.0\.1\]: .*ECONNREFUSED/);
  });

  it('defers when the server never greets', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const [outcome] = await deliver(buildMessage(input()), { ...options, mxPort: port, timeouts: { greetingMs: 300 } });
      expect(outcome).toMatchObject({ outcome: 'deferred' });
      expect(outcome!.response).toMatch(/ETIMEDOUT.*Greeting never received/);
    } finally {
      silent.close();
    }
  });

  it('bounces when the domain has neither MX nor A record', async () => {
    const [outcome] = await deliver(buildMessage(input({ to: ['ann@nowhere.test'] })), options);
    expect(outcome).toMatchObject({ recipient: 'ann@nowhere.test', outcome: 'bounced' });
    expect(outcome!.smtpCode).toBeUndefined();
    expect(outcome!.response).toBe('nowhere.test has no MX, A or AAAA record: it does not exist or accepts no mail');
  });

  it('bounces a domain that publishes a null MX', async () => {
    dns.mx('nullmx.test', '.', 0);
    const [outcome] = await deliver(buildMessage(input({ to: ['ann@nullmx.test'] })), options);
    expect(outcome).toMatchObject({ outcome: 'bounced' });
    expect(outcome!.response).toMatch(/null MX/);
  });

  it('defers when the DNS cannot tell (SERVFAIL)', async () => {
    dns.mx('flaky.test', 'mx.example.test');
    dns.servfail('flaky.test');
    const [outcome] = await deliver(buildMessage(input({ to: ['ann@flaky.test'] })), options);
    expect(outcome).toMatchObject({ outcome: 'deferred' });
    expect(outcome!.response).toMatch(/DNS lookup of the MX of flaky\.test failed \(ESERVFAIL\)/);
  });

  it('refuses an MX on a private address unless allowed, without connecting', async () => {
    const before = guard.attempts.length;
    const [outcome] = await deliver(buildMessage(input()), { ...options, allowPrivateCidrs: [] });
    expect(outcome).toMatchObject({ outcome: 'bounced' });
    expect(outcome!.response).toMatch(/mx\.example\.test resolves to 127\.0\.0\.1, a loopback address/);
    expect(guard.attempts.length).toBe(before);
  });
});

describe('through SMTP_RELAY_URL', () => {
  it('delivers through the smarthost and reuses its pooled connection', async () => {
    const relayOptions = { ...options, relayUrl: `smtp://127.0.0.1:${relay.port}` };
    const first = await deliver(buildMessage(input()), relayOptions);
    const second = await deliver(buildMessage(input({ emailId: '01920000-0000-7000-8000-000000000002' })), relayOptions);
    expect([first[0]!.outcome, second[0]!.outcome]).toEqual(['delivered', 'delivered']);
    expect(first[0]).toMatchObject({ via: 'relay', host: '127.0.0.1', smtpCode: 250 });
    expect(first[0]!.response).toMatch(new RegExp(`^relay 127\\.0\\.0\\.1:${relay.port}: 250 `));
    expect(relay.messages.map((m) => m.from)).toEqual([
      verpAddress(verpKey, EMAIL_ID, 0, 'send.acme.test'),
      verpAddress(verpKey, '01920000-0000-7000-8000-000000000002', 0, 'send.acme.test'),
    ]);
    expect(relay.connections()).toBe(1);
  });

  it('bounces what the smarthost refuses with 5xx', async () => {
    refusals.set('nobody@example.test', { code: 550, message: '5.1.1 No such user' });
    const outcomes = await deliver(buildMessage(input({ to: ['nobody@example.test', 'ann@example.test'] })), { ...options, relayUrl: `smtp://127.0.0.1:${relay.port}` });
    expect(outcomes.map((o) => [o.outcome, o.smtpCode])).toEqual([['bounced', 550], ['delivered', 250]]);
  });
});

describe('connection reuse', () => {
  beforeEach(() => {
    closeRelayPools();
    clearMxDns();
  });

  // How fast they go (TCP_NODELAY, no Nagle wait per message) is the delivery benchmark's to show
  // (docs/benchmarks.md); here: that message after message shares one connection.
  const inARow = async (deliverOptions: DeliveryOptions) => {
    for (let i = 0; i < 40; i += 1) {
      const [outcome] = await deliver(buildMessage(input({ emailId: `01920000-0000-7000-8000-${String(i).padStart(12, '0')}` })), deliverOptions);
      expect(outcome!.outcome).toBe('delivered');
    }
  };

  it('sends message after message on one relay connection', async () => {
    const before = relay.connections();
    await inARow({ ...options, relayUrl: `smtp://127.0.0.1:${relay.port}` });
    expect(relay.connections() - before).toBe(1);
  });

  it('keeps MX sessions and DNS answers between emails', async () => {
    const queries = dns.queries.length;
    const before = mx.connections();
    await inARow(options);
    expect(mx.connections() - before).toBe(1);
    expect(mx.messages.every((m) => m.secure)).toBe(true);
    // MX, A and AAAA once, for the 40 emails.
    expect(dns.queries.slice(queries).filter((q) => q.endsWith('example.test'))).toHaveLength(3);
  });

  it('delivers to several domains at once through one pool per MX address', async () => {
    const before = mx.connections();
    const domains = ['one.test', 'two.test', 'three.test'];
    for (const domain of domains) dns.mx(domain, 'mx.example.test');
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => deliver(buildMessage(input({ emailId: `01920000-0000-7000-8000-1000000000${String(i).padStart(2, '0')}`, to: domains.map((d) => `ann@${d}`) })), options)),
    );
    expect(outcomes.flat().every((o) => o.outcome === 'delivered')).toBe(true);
    expect(mx.messages).toHaveLength(36);
    expect(mx.connections() - before).toBeLessThanOrEqual(5);
  });

  it('replaces a pooled MX session the server closed', async () => {
    await deliver(buildMessage(input()), options);
    const before = mx.connections();
    // Dropped while idle, as a server's idle timeout would: the next email gets a new connection.
    await mx.dropClients();
    const [outcome] = await deliver(buildMessage(input()), options);
    expect(outcome!.outcome).toBe('delivered');
    expect(mx.connections() - before).toBe(1);
  });

  it('relays over smtps: on one TLS connection', async () => {
    const certificate = await selfSignedCertificate(['relay.example.test']);
    const secure = await startMxServer({ tls: certificate, implicitTls: true });
    try {
      const relayUrl = `smtps://127.0.0.1:${secure.port}?tls.rejectUnauthorized=false`;
      await inARow({ ...options, relayUrl });
      expect(secure.messages).toHaveLength(40);
      expect(secure.messages[0]!.secure).toBe(true);
      expect(secure.connections()).toBe(1);
    } finally {
      closeRelayPools();
      await secure.close();
    }
  });
});

describe('VERP and message rules', () => {
  it('rejects a VERP address with a wrong tag and accepts one whose case was changed', () => {
    const address = verpAddress(verpKey, EMAIL_ID, 3, 'send.acme.test');
    expect(parseVerpAddress(verpKey, address.toUpperCase())).toEqual({ emailId: EMAIL_ID, recipientIndex: 3, domain: 'send.acme.test' });
    expect(parseVerpAddress(verpKey, address.replace('.3.', '.4.'))).toBeNull();
    expect(parseVerpAddress(verpFromOtherKey(), address)).toBeNull();
    expect(address.split('@')[0]!.length).toBeLessThanOrEqual(64);
  });

  it('lists each envelope recipient once, to then cc then bcc', () => {
    expect(envelopeRecipients(['A <a@X.test>', 'b@x.test'], ['a@x.test', 'c@x.test'], ['B@x.test', 'd@x.test'])).toEqual(['a@x.test', 'b@x.test', 'c@x.test', 'd@x.test']);
  });

  it('refuses a From address outside the sending domain', () => {
    expect(() => buildMessage(input({ from: 'someone@other.test' }))).toThrow(/not on the sending domain acme\.test/);
    expect(() => buildMessage(input({ from: { name: 'News', address: 'news@mail.acme.test' } }))).not.toThrow();
  });
});

function verpFromOtherKey() {
  return verpKeyFrom(Buffer.alloc(32, 8));
}
