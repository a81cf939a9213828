import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { completeBody, textWillBeDerived } from '@/server/mail/body';
import { asHtmlDocument } from '@/server/mail/html-document';
import { TEXT_SOURCE_MAX_CHARS } from '@/server/mail/text-from-html';
import { newId } from '@/server/ids';
import { rewriteForTracking } from '@/server/services/tracking/rewrite';

// What every message carries whatever sent it (server/mail/body.ts): a whole HTML document and a
// text part. test/deliverability.test.ts checks the same on the wire, as a spam filter reads it.

describe('the HTML document', () => {
  it('wraps a fragment: doctype, <html>, a <head> with the charset and the subject as an escaped title, <body>', () => {
    expect(asHtmlDocument('<p>Hello</p>', 'Tom & Jerry <news>')).toBe(
      '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>Tom &amp; Jerry &lt;news&gt;</title>\n</head>\n<body>\n<p>Hello</p>\n</body>\n</html>\n',
    );
  });

  it('leaves a document that has its <html> byte for byte, whatever its case and attributes', () => {
    for (const html of ['<html><body><p>Hi</p></body></html>', '<!doctype html>\n<HTML lang="de"><p>Hi</p></HTML>', '<html\n><p>Hi</p>']) {
      expect(asHtmlDocument(html, 'Subject')).toBe(html);
    }
  });

  it('puts one doctype before a fragment that came with its own', () => {
    const wrapped = asHtmlDocument('<!DOCTYPE html><p>Hi</p>', 'S');
    expect(wrapped.match(/<!doctype/gi)).toHaveLength(1);
    expect(wrapped).toContain('<body>\n<p>Hi</p>\n</body>');
  });

  it('does not take a tag that only starts with "html" for the document', () => {
    expect(asHtmlDocument('<htmlish>x</htmlish>', 'S')).toMatch(/^<!DOCTYPE html>\n<html>/);
  });

  it('is still tracked once wrapped: the pixel inside the body, every link rewritten', async () => {
    const html = asHtmlDocument('<p><a href="https://acme.example.com/a">A</a> and <a href="https://acme.example.com/b">B</a></p>', 'S');
    const tracked = await rewriteForTracking(html, { emailId: newId(), appUrl: 'https://mail.eumail.test', key: randomBytes(32), opens: true, clicks: true });
    expect(tracked.links).toEqual(['https://acme.example.com/a', 'https://acme.example.com/b']);
    expect(tracked.html).not.toContain('href="https://acme.example.com');
    expect(tracked.html).toMatch(/<img src="https:\/\/mail\.eumail\.test\/t\/o\/[^"]+"[^>]*><\/body>\n<\/html>\n$/);
  });
});

describe('the text part', () => {
  it('is derived from HTML given alone: links as "text (url)", a bare URL once, images left out, headings as written', () => {
    const body = completeBody({
      subject: 'Receipt',
      html: '<h1>Your receipt</h1><p>See <a href="https://acme.example.com/orders/1">your order</a> or <a href="https://acme.example.com/">https://acme.example.com/</a>.</p><img src="https://acme.example.com/logo.png" alt="Acme">',
    });
    expect(body.textDerived).toBe(true);
    expect(body.text).toBe('Your receipt\n\nSee your order (https://acme.example.com/orders/1) or\nhttps://acme.example.com/.');
  });

  it('reads a data table in its columns and wraps lines at 72 characters', () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const text = completeBody({ subject: 'S', html: `<p>${words}</p><table><tr><td>Tea</td><td>9.00 EUR</td></tr></table>` }).text!;
    expect(Math.max(...text.split('\n').map((line) => line.length))).toBeLessThanOrEqual(72);
    expect(text).toMatch(/^Tea +9\.00 EUR$/m);
  });

  it('reads at most the first 256 KB of a huge HTML body, so one message cannot hold the delivery worker for seconds', () => {
    const paragraph = '<p>The parcel leaves our warehouse tomorrow morning.</p>';
    const html = paragraph.repeat(Math.ceil((2 * TEXT_SOURCE_MAX_CHARS) / paragraph.length));
    const text = completeBody({ subject: 'S', html }).text!;
    expect(text.endsWith('…')).toBe(true);
    expect(text.length).toBeLessThan(TEXT_SOURCE_MAX_CHARS);
  });

  it('keeps the text the sender gave, and derives none for blank text beside HTML', () => {
    expect(completeBody({ subject: 'S', html: '<p>Hi</p>', text: 'Hello there' })).toMatchObject({ text: 'Hello there', textDerived: false });
    expect(completeBody({ subject: 'S', html: '<p>Hi</p>', text: '  \n' })).toMatchObject({ text: 'Hi', textDerived: true });
    expect(completeBody({ subject: 'S', text: 'Only text' })).toEqual({ html: undefined, text: 'Only text', textDerived: false });
  });

  it('is derived from the HTML as the sender wrote it, so the preflight can say so beforehand', () => {
    expect(textWillBeDerived({ html: '<p>x</p>' })).toBe(true);
    expect(textWillBeDerived({ html: '<p>x</p>', text: '' })).toBe(true);
    expect(textWillBeDerived({ html: '<p>x</p>', text: 'x' })).toBe(false);
    expect(textWillBeDerived({ text: 'x' })).toBe(false);
  });
});
