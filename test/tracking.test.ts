import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventType } from '@/server/vocabulary/event-types';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { domains, emails, events } from '@/db/schema';
import { handleTracking, locationFor, TRANSPARENT_GIF } from '@/server/http/tracking';
import { truncateIp } from '@/server/services/tracking/records';
import { rewriteForTracking } from '@/server/services/tracking/rewrite';
import { clickToken, openToken, verifyToken } from '@/server/services/tracking/tokens';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';

const KEY = Buffer.alloc(32, 7);
const EMAIL_ID = '01890a5d-ac96-774b-bcce-b302099a8057';
const OTHER_ID = '01890a5d-ac96-774b-bcce-b302099a8058';
const APP_URL = 'https://mail.eumail.test';
const click = (index: number, id = EMAIL_ID) => `${APP_URL}/t/c/${clickToken(KEY, id, index)}`;
const pixel = (id = EMAIL_ID) => `<img src="${APP_URL}/t/o/${openToken(KEY, id)}" width="1" height="1" alt="" style="display:none">`;
const rewrite = (html: string, opens: boolean, clicks: boolean) => rewriteForTracking(html, { emailId: EMAIL_ID, appUrl: APP_URL, key: KEY, opens, clicks });

/**
 * A message with everything a rewriter could trip on. `link(i, raw, quote)` is the value of a
 * tracked href: as written in the input, the tracking URL of link i in the expected output.
 */
const newsletter = (link: (index: number, raw: string, quote: string) => string, beforeBodyEnd = '') =>
  [
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">',
    '<HTML xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office">\r',
    '<HEAD>\r',
    '<META http-equiv=Content-Type content="text/html; charset=utf-8">',
    '<TITLE>Caf&eacute; <a href="http://in-title.test/"></TITLE>',
    '<!--[if mso]><xml><o:OfficeDocumentSettings><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml><![endif]-->',
    '<STYLE type="text/css">',
    '  a[href^="http"] > b { color: red }  /* <a href="http://in-style.test/"> </body> */',
    '</STYLE>',
    '<script>var s = \'<a href="http://in-script.test/">\' + "</body>";</script>',
    '</HEAD>',
    "<body   bgcolor='#ffffff'  >",
    '\t<!-- a comment with <a href="http://commented.test/">a link</a> and </body> -->',
    '  <p>Caf&eacute; &amp; cr&egrave;me &nbsp;&#8364;5 &unknown; &copy <b>bold</B></p>',
    `  <A  HREF = ${link(0, 'https://shop.test/a?x=1&amp;y=2', "'")}   class=btn>Shop</A>`,
    `  <a href=${link(1, 'https://shop.test/b', '"')} data-x="it's" >B</a>`,
    `  <a class=x href=${link(2, 'https://shop.test/c?q=caf%C3%A9&copy=1', '')}>C</a>`,
    '  <a href="mailto:help@shop.test">mail</a> <a href="tel:+3312345">tel</a> <a href="#top">top</a> <a href="">empty</a> <a href>bare</a>',
    '  <a href="/relative">rel</a> <a href="javascript:alert(1)">js</a> <a name="anchor">no href</a> <a href="ftp://files.test/">ftp</a>',
    '  <a href="{{unsubscribe_url}}">unsub</a> <a href="https://shop.test/{{ name }}">ph</a> <a href="https://shop.test/%7B%7Bid%7D%7D">enc</a>',
    '  <a href="https://shop.test/skip" data-eumail-no-track>skip</a> <a href="https://shop.test/sg" clicktracking=off>sg</a>',
    `  <a href="${APP_URL}/t/c/abc">already</a> <a href="${APP_URL}/unsubscribe/xyz">unsubscribe</a>`,
    `  <a href=${link(0, 'https://shop.test/a?x=1&y=2', '"')}>same URL again</a>`,
    `  <a href=${link(3, ' https://shop.test/spaced ', '"')}>spaced</a>`,
    '  <!--[if mso]><v:roundrect href="https://shop.test/vml">btn</v:roundrect><![endif]-->',
    `  <!--[if !mso]><!--><a href=${link(4, 'https://shop.test/non-mso', '"')}>x</a><!--<![endif]-->`,
    '  <img src="https://shop.test/logo.png" alt="">',
    '  <textarea><a href="http://in-textarea.test/"></textarea>',
    '  <pre>',
    ' line</pre>',
    `  <map name="m"><area shape="rect" coords="0,0,1,1" href=${link(5, 'HTTPS://Shop.test/area', '"')}></map>`,
    `  <a href=${link(6, 'https://shop.test/b/', '"')} >similar, not the same</a>`,
    `${beforeBodyEnd}</body>`,
    '</HTML>',
    '',
  ].join('\n');

const asWritten = (_index: number, raw: string, quote: string) => `${quote}${raw}${quote}`;
const tracked = (index: number, _raw: string, quote: string) => `${quote || '"'}${click(index)}${quote || '"'}`;

describe('rewriteForTracking', () => {
  it('rewrites only the hrefs of http(s) links and keeps everything else byte for byte', async () => {
    const input = newsletter(asWritten);
    const { html, links } = await rewrite(input, false, true);
    expect(html).toBe(newsletter(tracked));
    expect(links).toEqual([
      'https://shop.test/a?x=1&y=2',
      'https://shop.test/b',
      'https://shop.test/c?q=caf%C3%A9&copy=1',
      'https://shop.test/spaced',
      'https://shop.test/non-mso',
      'HTTPS://Shop.test/area',
      'https://shop.test/b/',
    ]);
  });

  it('puts the pixel just before the real </body>, not one in a comment or a script', async () => {
    const input = newsletter(asWritten);
    const { html, links } = await rewrite(input, true, false);
    expect(html).toBe(newsletter(asWritten, pixel()));
    expect(links).toEqual([]);
    const both = await rewrite(input, true, true);
    expect(both.html).toBe(newsletter(tracked, pixel()));
    expect(both.links).toHaveLength(7);
  });

  it('appends the pixel when there is no body end tag, and finds an uppercase one', async () => {
    expect((await rewrite('<p>Hi</p>', true, false)).html).toBe(`<p>Hi</p>${pixel()}`);
    expect((await rewrite('<html><body><p>Hi</p>\n</BODY ></html>', true, false)).html).toBe(`<html><body><p>Hi</p>\n${pixel()}</BODY ></html>`);
    expect((await rewrite('<p>One</p></body><p>Two</p></body>', true, false)).html).toBe(`<p>One</p>${pixel()}</body><p>Two</p></body>`);
  });

  it('changes nothing when neither is asked for, or when there is nothing to track', async () => {
    const input = newsletter(asWritten);
    expect(await rewrite(input, false, false)).toEqual({ html: input, links: [] });
    const plain = '<p>No links, <a href="mailto:x@y.test">just mail</a> &amp; text</p>';
    expect(await rewrite(plain, false, true)).toEqual({ html: plain, links: [] });
    expect(await rewrite('', false, true)).toEqual({ html: '', links: [] });
  });

  it('is deterministic, so a retried build carries the same tokens', async () => {
    const input = newsletter(asWritten);
    expect(await rewrite(input, true, true)).toEqual(await rewrite(input, true, true));
  });

  it('escapes the tracking URL for the attribute and refuses an id that is not a UUID', async () => {
    const { html } = await rewriteForTracking('<a href="https://x.test/">x</a>', { emailId: EMAIL_ID, appUrl: 'https://a.test/?q=1&r="2"', key: KEY, opens: false, clicks: true });
    expect(html).toMatch(/^<a href="https:\/\/a\.test\/\?q=1&amp;r=&quot;2&quot;\/t\/c\/[A-Za-z0-9_-]{40}">x<\/a>$/);
    await expect(rewriteForTracking('<p>x</p>', { emailId: 'nope', appUrl: APP_URL, key: KEY, opens: true, clicks: true })).rejects.toThrow(/UUID/);
  });
});

describe('tracking tokens', () => {
  const flipped = (token: string, byte: number) => {
    const bytes = Buffer.from(token, 'base64url');
    bytes[byte]! ^= 0x01;
    return bytes.toString('base64url');
  };

  it('read back the email and the link index they were made for', () => {
    expect(verifyToken(KEY, 'open', openToken(KEY, EMAIL_ID))).toEqual({ emailId: EMAIL_ID });
    expect(verifyToken(KEY, 'click', clickToken(KEY, EMAIL_ID, 3))).toEqual({ emailId: EMAIL_ID, index: 3 });
    expect(verifyToken(KEY, 'click', clickToken(KEY, EMAIL_ID, 65_535))).toEqual({ emailId: EMAIL_ID, index: 65_535 });
    expect(openToken(KEY, EMAIL_ID)).toMatch(/^[A-Za-z0-9_-]{38}$/);
    expect(clickToken(KEY, EMAIL_ID, 0)).toMatch(/^[A-Za-z0-9_-]{40}$/);
  });

  it('refuse any flipped byte, in the id, the index or the tag', () => {
    const open = openToken(KEY, EMAIL_ID);
    const link = clickToken(KEY, EMAIL_ID, 2);
    for (let byte = 0; byte < 28; byte++) expect(verifyToken(KEY, 'open', flipped(open, byte))).toBeNull();
    for (let byte = 0; byte < 30; byte++) expect(verifyToken(KEY, 'click', flipped(link, byte))).toBeNull();
  });

  it("refuse another email's id or another index under a valid tag, and a token of another key", () => {
    const mine = Buffer.from(clickToken(KEY, EMAIL_ID, 0), 'base64url');
    const theirs = Buffer.from(clickToken(KEY, OTHER_ID, 0), 'base64url');
    const spliced = Buffer.concat([theirs.subarray(0, 18), mine.subarray(18)]).toString('base64url');
    expect(verifyToken(KEY, 'click', spliced)).toBeNull();
    const otherIndex = Buffer.from(mine);
    otherIndex.writeUInt16BE(1, 16);
    expect(verifyToken(KEY, 'click', otherIndex.toString('base64url'))).toBeNull();
    expect(verifyToken(Buffer.alloc(32, 8), 'click', clickToken(KEY, EMAIL_ID, 0))).toBeNull();
    expect(verifyToken(Buffer.alloc(32, 8), 'open', openToken(KEY, EMAIL_ID))).toBeNull();
  });

  it('refuse truncated, extended, non-canonical and cross-kind tokens', () => {
    const open = openToken(KEY, EMAIL_ID);
    const link = clickToken(KEY, EMAIL_ID, 0);
    for (const token of [open.slice(0, -1), open.slice(0, -4), `${open}A`, `${open}=`, '', open.replace(/./, '+')]) {
      expect(verifyToken(KEY, 'open', token)).toBeNull();
    }
    for (const token of [link.slice(0, -1), `${link}AAAA`, link.slice(0, 38)]) expect(verifyToken(KEY, 'click', token)).toBeNull();
    // 28 bytes leave 4 unused bits in the last character: another spelling of the same bytes is refused.
    const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const at = last.indexOf(open.at(-1)!);
    const twin = `${open.slice(0, -1)}${last[at ^ 1]}`;
    expect(Buffer.from(twin, 'base64url').equals(Buffer.from(open, 'base64url'))).toBe(true);
    expect(verifyToken(KEY, 'open', twin)).toBeNull();
    // An open token is never a click token, and back.
    expect(verifyToken(KEY, 'click', open)).toBeNull();
    expect(verifyToken(KEY, 'open', link)).toBeNull();
  });
});

describe('privacy helpers', () => {
  it('truncates IP addresses to /24 and /48', () => {
    expect(truncateIp('203.0.113.77')).toBe('203.0.113.0');
    expect(truncateIp('::ffff:203.0.113.77')).toBe('203.0.113.0');
    expect(truncateIp('2001:db8:abcd:12::1')).toBe('2001:db8:abcd::');
    expect(truncateIp('2001:0DB8:0000:0012:0:0:0:1')).toBe('2001:db8::');
    expect(truncateIp('::1')).toBe('::');
    expect(truncateIp('not an ip')).toBeNull();
    expect(truncateIp(undefined)).toBeNull();
  });

  it('sends a stored URL as the Location as it is, or in its ASCII serialisation', () => {
    expect(locationFor('https://shop.test/a?x=1&y=2')).toBe('https://shop.test/a?x=1&y=2');
    expect(locationFor('https://shop.test/café?q=ü')).toBe('https://shop.test/caf%C3%A9?q=%C3%BC');
    expect(locationFor('https://bücher.test/')).toBe('https://xn--bcher-kva.test/');
    expect(locationFor('https://shop.test/a\r\nSet-Cookie: x=1')).toBe('https://shop.test/aSet-Cookie:%20x=1');
    expect(locationFor('javascript:alert(1)')).toBeNull();
  });
});

describe('over HTTP', () => {
  let app: TestApp;
  let tracker: Server;
  let trackerUrl: string;
  let org: { organizationId: string; apiKey: string };

  beforeAll(async () => {
    app = await startTestApp();
    tracker = createServer((req, res) => {
      handleTracking(req, res, app.runtime.deps).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
    await new Promise<void>((resolve) => tracker.listen(0, '127.0.0.1', resolve));
    trackerUrl = `http://127.0.0.1:${(tracker.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    tracker.closeAllConnections();
    await new Promise<void>((resolve) => tracker.close(() => resolve()));
    await app.close();
  });

  beforeEach(async () => {
    await app.reset();
    org = await app.createOrg();
    const domain = await app.request('POST', '/api/domains', { key: org.apiKey, body: { name: 'acme.example.com' } });
    await app.runtime.deps.db.update(domains).set({ status: 'verified', verifiedAt: app.clock.now() }).where(eq(domains.id, domain.body.id));
    app.dns.mx('example.net', 'mx.example.net');
  });

  const HTML = '<html><body><p>Hello</p><a href="https://shop.example.org/deal?id=7&amp;ref=mail">Deal</a> <a href="mailto:help@acme.example.com">Help</a></body></html>';

  /** Sends through the API, then rewrites and stores the links as the dispatch pipeline does. */
  async function sendTracked(key = org.apiKey, tracking: { opens: boolean; clicks: boolean } = { opens: true, clicks: true }) {
    const sent = await app.request('POST', '/api/emails', {
      key,
      body: { from: 'Acme <hello@acme.example.com>', to: 'ada@example.net', subject: 'Deals', html: HTML, tracking },
    });
    expect(sent.status, sent.text).toBe(200);
    const id: string = sent.body.id;
    const rewritten = await rewriteForTracking(HTML, { emailId: id, appUrl: app.runtime.config.appUrl, key: app.runtime.deps.encryptionKey, ...tracking });
    await app.runtime.deps.db.update(emails).set({ trackedLinks: rewritten.links }).where(eq(emails.id, id));
    const paths = [...rewritten.html.matchAll(/(?:src|href)="[^"]*?(\/t\/[oc]\/[A-Za-z0-9_-]+)"/g)].map((m) => m[1]!);
    return { id, html: rewritten.html, pixel: paths.find((p) => p.startsWith('/t/o/')), link: paths.find((p) => p.startsWith('/t/c/')) };
  }

  const get = (path: string, init: RequestInit = {}) => fetch(`${trackerUrl}${path}`, { redirect: 'manual', ...init, headers: { 'user-agent': 'TestMail/1.0', ...(init.headers as object) } });
  const history = async (id: string, key = org.apiKey) => (await app.request('GET', `/api/emails/${id}`, { key })).body.events as Array<{ type: string; data: Record<string, unknown> }>;
  const orgEvents = (type: EventType) => app.runtime.deps.db.select().from(events).where(and(eq(events.organizationId, org.organizationId), eq(events.type, type)));

  it('answers the pixel with the transparent GIF and records one open per minute', async () => {
    const { id, pixel } = await sendTracked();
    const response = await get(pixel!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/gif');
    expect(response.headers.get('cache-control')).toMatch(/no-store/);
    expect(response.headers.get('content-length')).toBe('43');
    expect(Buffer.from(await response.arrayBuffer()).equals(TRANSPARENT_GIF)).toBe(true);
    const opened = (await history(id)).filter((e) => e.type === 'email.opened');
    expect(opened).toEqual([expect.objectContaining({ data: { userAgent: 'TestMail/1.0', ip: '127.0.0.0', machine: false } })]);
    expect(await orgEvents('email.opened')).toEqual([expect.objectContaining({ data: expect.objectContaining({ emailId: id, mode: 'live', subject: 'Deals', ip: '127.0.0.0' }) })]);

    await (await get(pixel!)).arrayBuffer();
    expect((await history(id)).filter((e) => e.type === 'email.opened')).toHaveLength(1);
    app.clock.advance(61_000);
    await (await get(pixel!)).arrayBuffer();
    expect((await history(id)).filter((e) => e.type === 'email.opened')).toHaveLength(2);
    // A HEAD (a prefetcher) gets the headers and records nothing.
    app.clock.advance(61_000);
    const head = await get(pixel!, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect((await history(id)).filter((e) => e.type === 'email.opened')).toHaveLength(2);
  });

  it("records the client behind a trusted proxy from X-Forwarded-For, and ignores the header from anyone else", async () => {
    const { id, pixel } = await sendTracked();
    const opensIps = async () => (await history(id)).filter((e) => e.type === 'email.opened').map((e) => e.data.ip);
    // Not configured: the header is the client's own claim and is ignored.
    await (await get(pixel!, { headers: { 'x-forwarded-for': '198.51.100.9' } })).arrayBuffer();
    expect(await opensIps()).toEqual(['127.0.0.0']);

    const behindProxy = createServer((req, res) => {
      const deps = { ...app.runtime.deps, config: { ...app.runtime.config, trustedProxyCidrs: ['127.0.0.0/8'] } };
      handleTracking(req, res, deps).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
    await new Promise<void>((resolve) => behindProxy.listen(0, '127.0.0.1', resolve));
    try {
      const proxied = (forwardedFor: string) =>
        fetch(`http://127.0.0.1:${(behindProxy.address() as AddressInfo).port}${pixel}`, { headers: { 'user-agent': 'TestMail/1.0', 'x-forwarded-for': forwardedFor } });
      // The client forged a first entry; the proxy appended what it saw, then a second proxy hop.
      app.clock.advance(61_000);
      await (await proxied('10.9.9.9, 203.0.113.77, 127.0.0.5')).arrayBuffer();
      // Garbage where an address should be: fall back to the peer.
      app.clock.advance(61_000);
      await (await proxied('not-an-address')).arrayBuffer();
      expect(await opensIps()).toEqual(['127.0.0.0', '203.0.113.0', '127.0.0.0']);
    } finally {
      behindProxy.closeAllConnections();
      await new Promise<void>((resolve) => behindProxy.close(() => resolve()));
    }
  });

  it('answers a forged or unknown pixel with the same GIF and records nothing', async () => {
    const { id, pixel } = await sendTracked();
    const token = pixel!.slice('/t/o/'.length);
    const forged = `/t/o/${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    for (const path of [forged, '/t/o/short', `/t/o/${openToken(app.runtime.deps.encryptionKey, OTHER_ID)}`]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/gif');
      expect(Buffer.from(await response.arrayBuffer()).equals(TRANSPARENT_GIF)).toBe(true);
    }
    expect((await history(id)).filter((e) => e.type === 'email.opened')).toEqual([]);
    expect(await orgEvents('email.opened')).toEqual([]);
  });

  it('redirects a click to the stored URL only, and records it', async () => {
    const { id, link } = await sendTracked();
    const response = await get(`${link!}?url=https://evil.example/`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://shop.example.org/deal?id=7&ref=mail');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const clicked = (await history(id)).filter((e) => e.type === 'email.clicked');
    expect(clicked).toEqual([expect.objectContaining({ data: { url: 'https://shop.example.org/deal?id=7&ref=mail', userAgent: 'TestMail/1.0', ip: '127.0.0.0', machine: false } })]);
    expect(await orgEvents('email.clicked')).toEqual([expect.objectContaining({ data: expect.objectContaining({ emailId: id, url: 'https://shop.example.org/deal?id=7&ref=mail' }) })]);
    // A HEAD (a link scanner) is answered but not recorded.
    const head = await get(link!, { method: 'HEAD' });
    expect(head.status).toBe(302);
    expect((await history(id)).filter((e) => e.type === 'email.clicked')).toHaveLength(1);
  });

  it('never redirects on a forged token, another email\'s index, or a link that is not stored', async () => {
    const { id, link } = await sendTracked();
    const other = await sendTracked(org.apiKey, { opens: false, clicks: false });
    const token = link!.slice('/t/c/'.length);
    const bytes = Buffer.from(token, 'base64url');
    bytes[20]! ^= 0x40;
    const key = app.runtime.deps.encryptionKey;
    const paths = [
      `/t/c/${bytes.toString('base64url')}`,
      `/t/c/${token.slice(0, -2)}`,
      `/t/c/${clickToken(key, other.id, 0)}`, // a valid token, but that email stored no links
      `/t/c/${clickToken(key, id, 1)}`, // a valid token past the stored links
      `/t/c/${clickToken(key, OTHER_ID, 0)}`, // no such email
      '/t/c/',
    ];
    for (const path of paths) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toMatch(/Link not found/);
    }
    expect((await history(id)).filter((e) => e.type === 'email.clicked')).toEqual([]);
    expect(await orgEvents('email.clicked')).toEqual([]);
  });

  it('allows only GET and HEAD', async () => {
    const { link, pixel } = await sendTracked();
    for (const path of [link!, pixel!]) {
      const response = await get(path, { method: 'POST' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
  });

  it('records opens and clicks of test-mode emails too', async () => {
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const { id, pixel, link } = await sendTracked(testKey);
    const [row] = await app.runtime.deps.db.select({ mode: emails.mode }).from(emails).where(eq(emails.id, id));
    expect(row!.mode).toBe('test');
    await (await get(pixel!)).arrayBuffer();
    expect((await get(link!)).headers.get('location')).toBe('https://shop.example.org/deal?id=7&ref=mail');
    expect((await history(id, testKey)).map((e) => e.type)).toEqual(['email.queued', 'email.opened', 'email.clicked']);
    expect((await orgEvents('email.opened'))[0]!.data).toMatchObject({ emailId: id, mode: 'test' });
  });
});
