import { describe, expect, it } from 'vitest';
import { filtersQuery, hasFilters, listInput, parseFilters } from '@/app/(dashboard)/emails/filters';
import { hasRemoteContent, previewDocument } from '@/app/lib/preview-document';
import { fromUtcInput, toUtcInput } from '@/app/lib/utc-input';
import { formatBytes } from '@/app/lib/format';

describe('the email list filters in the URL', () => {
  it('reads known filters and ignores an unknown status', () => {
    expect(parseFilters(new URLSearchParams('status=bounced&to=%20ada@example.net%20&tag=category:invoice'))).toEqual({
      status: 'bounced',
      to: 'ada@example.net',
      tag: 'category:invoice',
    });
    expect(parseFilters(new URLSearchParams('status=toString&to=&tag=%20'))).toEqual({ status: undefined, to: undefined, tag: undefined });
  });

  it('writes only the filters that are set, and round-trips', () => {
    expect(filtersQuery({})).toBe('');
    expect(filtersQuery({ to: '  ', tag: 'vip' })).toBe('?tag=vip');
    const filters = { status: 'queued' as const, to: 'a+b@example.net', tag: 'category:invoice, vip' };
    expect(parseFilters(new URLSearchParams(filtersQuery(filters)))).toEqual(filters);
    expect(hasFilters({})).toBe(false);
    expect(hasFilters({ tag: 'vip' })).toBe(true);
  });

  it('sends tags separated by commas or spaces as a list, all to match', () => {
    expect(listInput({ tag: 'category:invoice, vip  plan:pro' }, 20)).toEqual({ limit: 20, status: undefined, to: undefined, tag: ['category:invoice', 'vip', 'plan:pro'] });
    expect(listInput({}, 20).tag).toBeUndefined();
  });
});

describe('the HTML preview document', () => {
  it('puts its policy first, after a doctype when there is one', () => {
    const plain = previewDocument('<p>Hi</p>', { remoteImages: false });
    expect(plain.startsWith('<meta http-equiv="Content-Security-Policy"')).toBe(true);
    expect(plain).toContain("img-src data: cid:;");
    expect(plain.endsWith('<p>Hi</p>')).toBe(true);
    const withDoctype = previewDocument('<!DOCTYPE html><html><body>Hi</body></html>', { remoteImages: true });
    expect(withDoctype.startsWith('<!DOCTYPE html><meta http-equiv="Content-Security-Policy"')).toBe(true);
    expect(withDoctype).toContain('img-src data: cid: https: http:;');
  });

  it('offers remote images only when the HTML has remote content, not for plain links', () => {
    expect(hasRemoteContent('<a href="https://example.org">pricing</a>')).toBe(false);
    expect(hasRemoteContent('<img src="https://example.org/logo.png">')).toBe(true);
    expect(hasRemoteContent('<img src=//cdn.example.org/logo.png>')).toBe(true);
    expect(hasRemoteContent('<link rel="stylesheet" href="https://example.org/a.css">')).toBe(true);
    expect(hasRemoteContent('<td style="background:url(\'https://example.org/bg.png\')">')).toBe(true);
    expect(hasRemoteContent('<img src="data:image/png;base64,AAAA">')).toBe(false);
  });
});

describe('the reschedule input, in UTC', () => {
  it('reads and writes minutes in UTC', () => {
    expect(toUtcInput('2026-11-21T10:05:59.123Z')).toBe('2026-11-21T10:05');
    expect(fromUtcInput('2026-11-21T10:05')).toBe('2026-11-21T10:05:00.000Z');
    expect(fromUtcInput('2026-11-21T10:05:30')).toBe('2026-11-21T10:05:30.000Z');
    expect(fromUtcInput('')).toBeNull();
    expect(fromUtcInput('2026-13-45T10:05')).toBeNull();
  });
});

describe('attachment sizes', () => {
  it('reads like a mail client', () => {
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(23)).toBe('23 bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(10 * 1024)).toBe('10 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3 MB');
  });
});
