import { RewritingStream } from 'parse5-html-rewriting-stream';
import { MAX_TRACKED_LINKS, sealedClickToken, sealedOpenToken, trackingKeyFrom, uuidBytes } from './tokens';

interface RewriteOptions {
  emailId: string;
  /** The public origin (`APP_URL`); tracking URLs are `${appUrl}/t/o/...` and `${appUrl}/t/c/...`. */
  appUrl: string;
  /** `deps.encryptionKey`; the tracking key is derived from it. */
  key: Buffer;
  opens: boolean;
  clicks: boolean;
}

/**
 * Rewrites an email's HTML for tracking with parse5's streaming rewriter: every token that is not
 * changed goes out as its raw source, so the HTML stays byte for byte except for the `href` values
 * of tracked links and the pixel. `links[i]` is the URL (as written, entities decoded, surrounding
 * whitespace trimmed) that the click token of index i redirects to; the same URL twice shares one
 * index. Deterministic: the same input gives the same output.
 */
export async function rewriteForTracking(html: string, options: RewriteOptions): Promise<{ html: string; links: string[] }> {
  if (!options.opens && !options.clicks) return { html, links: [] };
  const base = options.appUrl.replace(/\/+$/, '');
  uuidBytes(options.emailId); // throws on anything but a UUID, before any work
  const trackingKey = trackingKeyFrom(options.key);
  const ownBase = parseUrl(`${base}/`);
  const links: string[] = [];
  const indexOf = new Map<string, number>();
  let pixelPlaced = false;

  const pixel = () => {
    const src = `${base}/t/o/${sealedOpenToken(trackingKey, options.emailId)}`;
    return `<img src="${escapeAttribute(src)}" width="1" height="1" alt="" style="display:none">`;
  };
  const clickUrl = (index: number) => `${base}/t/c/${sealedClickToken(trackingKey, options.emailId, index)}`;

  const rewriter = new RewritingStream();
  let out = '';
  rewriter.on('data', (chunk: string) => {
    out += chunk;
  });
  if (options.clicks) {
    rewriter.on('startTag', (startTag, raw: string) => {
      // A start tag's location carries its attributes' (parse5's LocationWithAttributes).
      const location = startTag.sourceCodeLocation as
        | { startOffset: number; attrs?: Record<string, { startOffset: number; endOffset: number }> }
        | null
        | undefined;
      const hrefAt = location?.attrs?.href;
      const href = startTag.attrs.find((attr) => attr.name === 'href');
      if ((startTag.tagName !== 'a' && startTag.tagName !== 'area') || !location || !hrefAt || !href || optedOut(startTag.attrs)) {
        rewriter.emitRaw(raw);
        return;
      }
      const url = trackableUrl(href.value, ownBase);
      let index = url === null ? undefined : indexOf.get(url);
      if (url !== null && index === undefined && links.length < MAX_TRACKED_LINKS) {
        index = links.push(url) - 1;
        indexOf.set(url, index);
      }
      if (index === undefined) {
        rewriter.emitRaw(raw);
        return;
      }
      const from = hrefAt.startOffset - location.startOffset;
      const to = hrefAt.endOffset - location.startOffset;
      rewriter.emitRaw(raw.slice(0, from) + replaceAttributeValue(raw.slice(from, to), clickUrl(index)) + raw.slice(to));
    });
  }
  if (options.opens) {
    rewriter.on('endTag', (endTag, raw: string) => {
      if (endTag.tagName === 'body' && !pixelPlaced) {
        pixelPlaced = true;
        rewriter.emitRaw(pixel());
      }
      rewriter.emitRaw(raw);
    });
  }
  await new Promise<void>((resolve, reject) => {
    rewriter.on('end', resolve);
    rewriter.on('error', reject);
    rewriter.end(html);
  });
  if (options.opens && !pixelPlaced) out += pixel();
  return { html: out, links };
}

/** `data-eumail-no-track` (any value), or SendGrid's `clicktracking="off"`, keeps a link as written. */
function optedOut(attrs: Array<{ name: string; value: string }>): boolean {
  return attrs.some((attr) => attr.name === 'data-eumail-no-track' || (attr.name === 'clicktracking' && attr.value.trim().toLowerCase() === 'off'));
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/**
 * The URL to store for an href, or null when the link is not tracked: anything but an absolute
 * http(s) URL (mailto:, tel:, #anchors, relative paths, javascript:), an unrendered placeholder
 * (`{{ unsubscribe_url }}`, also percent-encoded), and the service's own tracking and unsubscribe URLs.
 */
function trackableUrl(value: string, ownBase: URL | null): string | null {
  // What a browser does first with an href: strip leading and trailing C0 controls and spaces.
  const url = value.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  if (!/^https?:/i.test(url)) return null;
  if (/\{\{|\}\}|%7b%7b|%7d%7d/i.test(url)) return null;
  const parsed = parseUrl(url);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return null;
  if (ownBase && parsed.origin === ownBase.origin) {
    const path = parsed.pathname;
    if (path.startsWith(`${ownBase.pathname}t/`) || path.startsWith(`${ownBase.pathname}unsubscribe`)) return null;
  }
  return url;
}

/** `name = 'value'` (as written) with a new value, keeping the name, the spacing and the quote style. */
function replaceAttributeValue(rawAttribute: string, value: string): string {
  const match = /^([^\t\n\f\r =]+[\t\n\f\r ]*=[\t\n\f\r ]*)(["']?)/.exec(rawAttribute);
  if (!match) return rawAttribute;
  const quote = match[2] || '"';
  return `${match[1]}${quote}${escapeAttribute(value)}${quote}`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
