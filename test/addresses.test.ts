import { describe, expect, it } from 'vitest';
import { normalizeAddress, parseMailbox } from '@/server/services/shared/addresses';

describe('parseMailbox', () => {
  it.each([
    ['ada@example.com', { name: null, local: 'ada', domain: 'example.com', address: 'ada@example.com' }],
    ['Ada Lovelace <ada@Example.COM>', { name: 'Ada Lovelace', local: 'ada', domain: 'example.com', address: 'ada@example.com' }],
    ['"Lovelace, Ada" <ada@example.com>', { name: 'Lovelace, Ada', address: 'ada@example.com' }],
    ['"Say \\"hi\\"" <hi@example.com>', { name: 'Say "hi"', address: 'hi@example.com' }],
    ['<ada@example.com>', { name: null, address: 'ada@example.com' }],
    ['first.last+tag@sub.example.co.uk', { local: 'first.last+tag', domain: 'sub.example.co.uk' }],
    ['"john doe"@example.com', { local: '"john doe"', address: '"john doe"@example.com' }],
    ['josé@bücher.de', { local: 'josé', domain: 'xn--bcher-kva.de', address: 'josé@xn--bcher-kva.de' }],
    ['Ünïcödé <用户@例子.广告>', { name: 'Ünïcödé', local: '用户', domain: 'xn--fsqu00a.xn--4rr70v', address: '用户@xn--fsqu00a.xn--4rr70v' }],
  ])('accepts %j', (input, expected) => {
    expect(parseMailbox(input)).toMatchObject(expected);
  });

  it.each([
    ['', /must not be empty/],
    ['plainaddress', /not a valid email address/],
    ['@example.com', /not a valid email address/],
    ['ada@', /not a valid email address/],
    ['ada..lovelace@example.com', /not a valid email address/],
    ['.ada@example.com', /not a valid email address/],
    ['ada lovelace@example.com', /not a valid email address/],
    ['ada@localhost', /valid domain/],
    ['ada@-bad.example.com', /valid domain/],
    ['ada@[192.0.2.1]', /IP address/],
    ['ada@192.0.2.1', /IP address/],
    ['Ada <ada@example.com', /angle brackets/],
    ['ada@example.com\r\nBcc: victim@example.com', /line breaks/],
    [`${'a'.repeat(65)}@example.com`, /longer than 64 bytes/],
    [`${'a'.repeat(10)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.com`, /longer than 254 bytes/],
  ])('refuses %j', (input, message) => {
    expect(() => parseMailbox(input)).toThrow(message);
  });

  it('normalises for comparison: lowercase with the ASCII domain', () => {
    expect(normalizeAddress('Ada <ADA@Bücher.DE>')).toBe('ada@xn--bcher-kva.de');
  });
});
