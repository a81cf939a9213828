import { describe, expect, it } from 'vitest';
import { TestClock } from '@/server/clock';
import { loadConfig } from '@/server/config';
import { limitsFor, parseLimitOverrides, providerIdOf, OTHER_LIMITS } from '@/server/services/delivery-shaping';
import { verdictOf, namesTheService } from '@/server/services/delivery-shaping/replies';
import { DeliveryShaper, MIN_RATE_PER_MINUTE, type PauseAlert } from '@/server/services/delivery-shaping/shaper';
import type { ShapingStore } from '@/server/services/delivery-shaping/store';

describe('providers from MX hosts', () => {
  it.each([
    ['gmail.com', ['gmail-smtp-in.l.google.com', 'alt1.gmail-smtp-in.l.google.com'], 'google'],
    ['acme.eu', ['aspmx.l.google.com'], 'google'],
    ['outlook.com', ['outlook-com.olc.protection.outlook.com'], 'microsoft'],
    ['contoso.de', ['contoso-de.mail.protection.outlook.com'], 'microsoft'],
    ['yahoo.fr', ['mta5.am0.yahoodns.net'], 'yahoo'],
    ['aol.com', ['mx-aol.mail.gm0.yahoodns.net'], 'yahoo'],
    ['icloud.com', ['mx01.mail.icloud.com'], 'apple'],
    ['web.de', ['mx-ha03.web.de'], 'gmx-webde'],
    ['gmx.de', ['mx00.emig.gmx.net'], 'gmx-webde'],
    ['shop.example.de', ['mx00.ionos.de', 'mx01.ionos.de'], 'gmx-webde'],
    ['orange.fr', ['smtp-in.orange.fr'], 'orange'],
    ['example.net', ['MX1.Example.NET.', 'mx2.example.net'], 'mx1.example.net'],
    ['bare.example', [], 'bare.example'],
    // A look-alike host is not the provider.
    ['evil.example', ['google.com.evil.example'], 'google.com.evil.example'],
  ])('%s (%j) is %s', (domain, hosts, provider) => {
    expect(providerIdOf(domain, hosts)).toBe(provider);
  });

  it('starts every other host at the pool of today, with no rate', () => {
    expect(limitsFor('mx.example.net', {})).toEqual({ connections: 5, messagesPerConnection: 100, messagesPerMinute: null });
    expect(OTHER_LIMITS.messagesPerMinute).toBeNull();
    expect(limitsFor('orange', {}).messagesPerMinute).toBe(300);
  });
});

describe('DELIVERY_PROVIDER_LIMITS', () => {
  it('changes a provider, "other", or one MX host', () => {
    const overrides = parseLimitOverrides('{"orange": {"messagesPerMinute": 120}, "other": {"connections": 10}, "mx.partner.example": {"messagesPerMinute": null}}');
    expect(limitsFor('orange', overrides)).toEqual({ connections: 3, messagesPerConnection: 20, messagesPerMinute: 120 });
    expect(limitsFor('mx.example.net', overrides).connections).toBe(10);
    expect(limitsFor('google', overrides).connections).toBe(20);
  });

  it('stops the start with one line naming what is wrong', () => {
    expect(() => loadConfig({ DELIVERY_PROVIDER_LIMITS: '{"orange": {"connections": 0}}' })).toThrow(/DELIVERY_PROVIDER_LIMITS "orange".connections: /);
    expect(() => loadConfig({ DELIVERY_PROVIDER_LIMITS: '{"orange": {"conections": 3}}' })).toThrow(/DELIVERY_PROVIDER_LIMITS "orange": Unrecognized key/);
    expect(() => loadConfig({ DELIVERY_PROVIDER_LIMITS: '{"not a host": {}}' })).toThrow(/neither a known provider/);
    expect(() => loadConfig({ DELIVERY_PROVIDER_LIMITS: '{nope' })).toThrow(/DELIVERY_PROVIDER_LIMITS is not valid JSON/);
    expect(() => loadConfig({ DELIVERY_PROVIDER_LIMITS: '/nonexistent/limits.json' })).toThrow(/neither a JSON object nor a readable file/);
    expect(() => loadConfig({ OPERATOR_EMAIL: 'nobody' })).toThrow(/OPERATOR_EMAIL must be an email address/);
    expect(loadConfig({ DELIVERY_PROVIDER_LIMITS: '{"google": {"messagesPerMinute": 6000}}' }).deliveryProviderLimits).toEqual({ google: { messagesPerMinute: 6000 } });
  });
});

describe('what a reply says about our traffic', () => {
  it.each([
    [{ smtpCode: 421, text: '4.7.0 Try again later, closing connection.' }, 'slow'],
    [{ smtpCode: 450, text: '4.7.28 Our system has detected an unusual rate of unsolicited mail' }, 'slow'],
    [{ smtpCode: 451, text: '4.7.500 Server busy. Please try again later' }, 'slow'],
    [{ text: 'ECONNECTION: connect ECONNREFUSED 127.0.0.2:25', errorCode: 'ECONNECTION' }, 'slow'],
    [{ smtpCode: 550, text: '5.7.1 Service unavailable, Client host [192.0.2.1] blocked using Spamhaus' }, 'block'],
    [{ smtpCode: 550, text: '5.7.1 Unfortunately, messages from [192.0.2.1] weren\'t sent. (S3150)' }, 'block'],
    [{ smtpCode: 421, text: '4.7.0 [TSS09] All messages from 192.0.2.1 will be permanently deferred' }, 'block'],
    [{ smtpCode: 554, text: '5.7.1 acme.example has poor reputation' }, 'block'],
    [{ smtpCode: 550, text: '5.1.1 No such user' }, 'ok'],
    [{ smtpCode: 550, text: '5.7.1 Your sending IP 192.0.2.1 has been blocked' }, 'block'],
    [{ smtpCode: 554, text: '5.7.1 Message blocked due to poor reputation' }, 'block'],
    [{ smtpCode: 550, text: '5.2.1 Mailbox is blocked by its owner' }, 'ok'],
    [{ smtpCode: 452, text: '4.2.2 Mailbox full' }, 'ok'],
    [{ smtpCode: 450, text: '4.7.1 <ann@example.net>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/' }, 'ok'],
    [{ smtpCode: 250, text: '2.0.0 OK queued' }, 'ok'],
  ] as const)('%j is %s', (reply, verdict) => {
    expect(verdictOf(reply)).toBe(verdict);
  });

  it('a block names the service by our address or our host name', () => {
    expect(namesTheService({ text: 'Client host [192.0.2.1] blocked', localAddress: '192.0.2.1' }, 'mx.eumail.example')).toBe(true);
    expect(namesTheService({ text: 'Client host [192.0.2.10] blocked', localAddress: '192.0.2.1' }, 'mx.eumail.example')).toBe(false);
    expect(namesTheService({ text: 'mx.eumail.example is listed', localAddress: '::ffff:10.0.0.1' }, 'mx.eumail.example')).toBe(true);
    expect(namesTheService({ text: 'acme.example has poor reputation', localAddress: '192.0.2.1' }, 'mx.eumail.example')).toBe(false);
  });
});

const memoryStore = (): ShapingStore => ({
  savePause: async () => {},
  clearPause: async () => {},
  readPauses: async () => [],
  saveLanes: async () => {},
  readLanes: async () => [],
  saveDomains: async () => {},
});

describe('the shaper', () => {
  const setup = (overrides = {}) => {
    const clock = new TestClock();
    const alerts: PauseAlert[] = [];
    const shaper = new DeliveryShaper({ clock, mailHost: 'mx.eumail.example', overrides, store: memoryStore(), alert: (a) => alerts.push(a), fault: (e) => { throw e; } });
    return { clock, alerts, shaper };
  };
  const sendMany = (shaper: DeliveryShaper, n: number, provider = 'mx.example.net', domain = 'acme.example') => {
    let sent = 0;
    for (let i = 0; i < n; i += 1) if (!shaper.admit(provider, domain)) sent += 1;
    return sent;
  };

  it('lets an unknown host go unlimited until it asks for less, then halves from what was sent', () => {
    const { clock, shaper } = setup();
    expect(sendMany(shaper, 400)).toBe(400);
    expect(shaper.observe('mx.example.net', 'acme.example', { smtpCode: 421, text: '4.7.0 slow down' })).toBe('slow');
    const lane = shaper.lane('mx.example.net', 'acme.example');
    expect(shaper.rateOf(lane)).toBe(200);
    // A second 421 within the minute is the same signal.
    shaper.observe('mx.example.net', 'acme.example', { smtpCode: 421, text: '4.7.0 slow down' });
    expect(shaper.rateOf(lane)).toBe(200);
    // Now throttled: a burst of five seconds' worth, then held with the time a place frees.
    const sent = sendMany(shaper, 100);
    expect(sent).toBeLessThanOrEqual(17);
    const hold = shaper.admit('mx.example.net', 'acme.example');
    expect(hold?.retryAt.getTime()).toBeGreaterThan(clock.now().getTime());
    expect(hold?.reason).toMatch(/at most 200 messages a minute/);
    // The next one held gets the next slot (200 a minute: 300 ms apart), so a backlog comes back spread out.
    const next = shaper.admit('mx.example.net', 'acme.example');
    expect(next!.retryAt.getTime() - hold!.retryAt.getTime()).toBe(300);
    // Other sending domains are not slowed.
    expect(sendMany(shaper, 50, 'mx.example.net', 'other.example')).toBe(50);
    // Good replies bring it back step by step, then to no limit.
    clock.advance(61_000);
    shaper.observe('mx.example.net', 'acme.example', { smtpCode: 250, text: 'ok' });
    expect(shaper.rateOf(lane)).toBe(300);
    clock.advance(61_000);
    shaper.observe('mx.example.net', 'acme.example', { smtpCode: 250, text: 'ok' });
    expect(shaper.rateOf(lane)).toBeNull();
  });

  it('never goes below the minimum rate', () => {
    const { clock, shaper } = setup();
    for (let i = 0; i < 10; i += 1) {
      shaper.admit('orange', 'acme.example');
      shaper.observe('orange', 'acme.example', { smtpCode: 421, text: 'too many connections' });
      clock.advance(61_000);
    }
    expect(shaper.rateOf(shaper.lane('orange', 'acme.example'))).toBe(MIN_RATE_PER_MINUTE);
  });

  it('pauses on a reputation block, for the sending domain or for everyone when it names us, and alerts once', () => {
    const { clock, alerts, shaper } = setup();
    expect(shaper.observe('google', 'acme.example', { smtpCode: 550, text: '5.7.1 acme.example has poor reputation', localAddress: '192.0.2.1' })).toBe('block');
    expect(shaper.admit('google', 'acme.example')?.reason).toMatch(/paused \(blocked for reputation\)/);
    expect(shaper.admit('google', 'other.example')).toBeNull();
    shaper.observe('google', 'acme.example', { smtpCode: 550, text: '5.7.1 acme.example has poor reputation', localAddress: '192.0.2.1' });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ provider: 'google', sendingDomain: 'acme.example' });

    shaper.observe('microsoft', 'acme.example', { smtpCode: 550, text: '5.7.1 messages from [192.0.2.1] weren\'t sent (S3150)', localAddress: '192.0.2.1' });
    expect(alerts[1]).toMatchObject({ provider: 'microsoft', sendingDomain: null });
    expect(shaper.admit('microsoft', 'other.example')).not.toBeNull();
    // An automatic pause ends after an hour; the provider is then probed at the slowest rate.
    clock.advance(60 * 60_000 + 1);
    expect(shaper.admit('microsoft', 'acme.example')).toBeNull();
    expect(shaper.rateOf(shaper.lane('microsoft', 'acme.example'))).toBe(MIN_RATE_PER_MINUTE);
  });
});
