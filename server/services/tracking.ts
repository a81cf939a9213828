import { createHmac, timingSafeEqual } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { and, eq, gt, sql } from 'drizzle-orm';
import { RewritingStream } from 'parse5-html-rewriting-stream';
import { emailEvents, emails } from '@/db/schema';
import type { Deps } from '../deps';
import { recordEmailEvents } from './email-events';

/*
 * Open and click tracking (docs/tracking.md).
 *
 * Token = base64url( emailId (16 bytes) [+ link index (uint16 BE), clicks only] + tag (12 bytes) ),
 * tag = HMAC-SHA256(trackingKey, kind byte ‖ the bytes before it), truncated to 96 bits, where
 * trackingKey = HMAC-SHA256(encryptionKey, "eumail tracking v1"). The kind byte ('o' or 'c') keeps an
 * open token from ever being read as a click token and back; tokens are deterministic, so a
 * rebuilt message (a retry) carries the same ones.
 */

const TAG_BYTES = 12;
const ID_BYTES = 16;
const OPEN_TOKEN_BYTES = ID_BYTES + TAG_BYTES;
const CLICK_TOKEN_BYTES = ID_BYTES + 2 + TAG_BYTES;
/** The link index is a uint16: past this many distinct URLs, further links stay as written. */
export const MAX_TRACKED_LINKS = 0x10000;
/** A repeat open of one email, or click of one link, within this window is not recorded again. */
export const OPEN_DEDUPE_MS = 60_000;
export const CLICK_DEDUPE_MS = 60_000;
const USER_AGENT_MAX = 512;

type Kind = 'open' | 'click';
const KIND_BYTE: Record<Kind, number> = { open: 0x6f, click: 0x63 };

export function trackingKeyFrom(encryptionKey: Buffer): Buffer {
  return createHmac('sha256', encryptionKey).update('eumail tracking v1').digest();
}

function tag(key: Buffer, kind: Kind, body: Buffer): Buffer {
  return createHmac('sha256', key)
    .update(Buffer.of(KIND_BYTE[kind]))
    .update(body)
    .digest()
    .subarray(0, TAG_BYTES);
}

function uuidBytes(id: string): Buffer {
  const hex = id.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`not a UUID: ${id}`);
  return Buffer.from(hex, 'hex');
}

function uuidFromBytes(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function openBody(emailId: string): Buffer {
  return uuidBytes(emailId);
}

function clickBody(emailId: string, index: number): Buffer {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_TRACKED_LINKS) throw new Error(`link index out of range: ${index}`);
  const body = Buffer.alloc(ID_BYTES + 2);
  uuidBytes(emailId).copy(body);
  body.writeUInt16BE(index, ID_BYTES);
  return body;
}

function seal(trackingKey: Buffer, kind: Kind, body: Buffer): string {
  return Buffer.concat([body, tag(trackingKey, kind, body)]).toString('base64url');
}

/** The token of an email's open pixel. */
export function openToken(encryptionKey: Buffer, emailId: string): string {
  return seal(trackingKeyFrom(encryptionKey), 'open', openBody(emailId));
}

/** The token of an email's link number `index`. */
export function clickToken(encryptionKey: Buffer, emailId: string, index: number): string {
  return seal(trackingKeyFrom(encryptionKey), 'click', clickBody(emailId, index));
}

/**
 * What a token says, or null when it is not one this key made for this kind: wrong length or
 * alphabet, a non-canonical encoding, or a tag that does not match (compared in constant time).
 */
export function verifyToken(encryptionKey: Buffer, kind: 'open', token: string): { emailId: string } | null;
export function verifyToken(encryptionKey: Buffer, kind: 'click', token: string): { emailId: string; index: number } | null;
export function verifyToken(encryptionKey: Buffer, kind: Kind, token: string): { emailId: string; index?: number } | null {
  const size = kind === 'open' ? OPEN_TOKEN_BYTES : CLICK_TOKEN_BYTES;
  if (token.length !== Math.ceil((size * 4) / 3) || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  // Unused low bits of the last character would let several strings decode alike: only the canonical one counts.
  if (bytes.length !== size || bytes.toString('base64url') !== token) return null;
  const body = bytes.subarray(0, size - TAG_BYTES);
  const expected = tag(trackingKeyFrom(encryptionKey), kind, body);
  if (!timingSafeEqual(expected, bytes.subarray(size - TAG_BYTES))) return null;
  const emailId = uuidFromBytes(body.subarray(0, ID_BYTES));
  return kind === 'open' ? { emailId } : { emailId, index: body.readUInt16BE(ID_BYTES) };
}

export interface RewriteOptions {
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
    const src = `${base}/t/o/${seal(trackingKey, 'open', openBody(options.emailId))}`;
    return `<img src="${escapeAttribute(src)}" width="1" height="1" alt="" style="display:none">`;
  };
  const clickUrl = (index: number) => `${base}/t/c/${seal(trackingKey, 'click', clickBody(options.emailId, index))}`;

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

/**
 * What is kept of the client that fetched a tracking URL: the user agent (capped), and the IP
 * address truncated to its network (IPv4 /24, IPv6 /48) so that it no longer names a household.
 */
export interface TrackingClient {
  userAgent?: string | null;
  ip?: string | null;
}

export function truncateIp(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const v4 = mapped ? mapped[1]! : ip;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0`;
  const bare = ip.replace(/%.*$/, '');
  if (!isIPv6(bare)) return null;
  const [head = '', tail] = bare.split('::');
  const headGroups = head ? head.split(':') : [];
  // With `::` the groups written before it come first and zeros follow; the /48 is the first three.
  const groups = (tail === undefined ? headGroups : [...headGroups, '0', '0', '0']).slice(0, 3).map((group) => (/^[0-9a-f]{1,4}$/i.test(group) ? group : '0'));
  // The URL serialiser writes the shortest form (RFC 5952): 2001:db8:abcd::
  return new URL(`http://[${groups.join(':')}::]`).hostname.slice(1, -1);
}

function clientData(client: TrackingClient | undefined): Record<string, string> {
  const data: Record<string, string> = {};
  const userAgent = client?.userAgent?.slice(0, USER_AGENT_MAX);
  if (userAgent) data.userAgent = userAgent;
  const ip = truncateIp(client?.ip);
  if (ip) data.ip = ip;
  return data;
}

type TrackingDeps = Pick<Deps, 'db' | 'clock' | 'encryptionKey'>;

async function loadEmail(deps: TrackingDeps, emailId: string) {
  const [email] = await deps.db
    .select({
      id: emails.id,
      organizationId: emails.organizationId,
      mode: emails.mode,
      from: emails.from,
      to: emails.to,
      subject: emails.subject,
      tags: emails.tags,
      trackOpens: emails.trackOpens,
      trackedLinks: emails.trackedLinks,
    })
    .from(emails)
    .where(eq(emails.id, emailId));
  return email ?? null;
}

type LoadedEmail = NonNullable<Awaited<ReturnType<typeof loadEmail>>>;

async function record(deps: TrackingDeps, email: LoadedEmail, type: 'email.opened' | 'email.clicked', windowMs: number, data: Record<string, string>): Promise<boolean> {
  const since = new Date(deps.clock.now().getTime() - windowMs);
  return deps.db.transaction(async (tx) => {
    const conditions = [eq(emailEvents.emailId, email.id), eq(emailEvents.type, type), gt(emailEvents.createdAt, since)];
    if (data.url !== undefined) conditions.push(sql`${emailEvents.data}->>'url' = ${data.url}`);
    const [recent] = await tx
      .select({ id: emailEvents.id })
      .from(emailEvents)
      .where(and(...conditions))
      .limit(1);
    if (recent) return false;
    await recordEmailEvents(tx, deps, email, [{ type, data }]);
    return true;
  });
}

/**
 * An open of the pixel with this token: recorded as `email.opened` (in the email's history and as
 * an organization event) unless the same email was opened within OPEN_DEDUPE_MS. Null when the
 * token is not valid, the email is gone, or it does not track opens. Test-mode emails are recorded too.
 */
export async function recordOpen(deps: TrackingDeps, token: string, client?: TrackingClient): Promise<{ emailId: string; recorded: boolean } | null> {
  const claim = verifyToken(deps.encryptionKey, 'open', token);
  if (!claim) return null;
  const email = await loadEmail(deps, claim.emailId);
  if (!email || !email.trackOpens) return null;
  const recorded = await record(deps, email, 'email.opened', OPEN_DEDUPE_MS, clientData(client));
  return { emailId: email.id, recorded };
}

/**
 * Where a click on this token goes: the URL stored for that index on that email, never anything
 * taken from the request; null when the token is not valid or the email or the link is gone.
 * The click is recorded as `email.clicked` with `{ url }` unless the same link of the same email
 * was clicked within CLICK_DEDUPE_MS; `record: false` resolves without recording (HEAD requests).
 */
export async function resolveClick(deps: TrackingDeps, token: string, client?: TrackingClient & { record?: boolean }): Promise<string | null> {
  const claim = verifyToken(deps.encryptionKey, 'click', token);
  if (!claim) return null;
  const email = await loadEmail(deps, claim.emailId);
  const url = email?.trackedLinks[claim.index];
  if (!email || url === undefined) return null;
  if (client?.record !== false) await record(deps, email, 'email.clicked', CLICK_DEDUPE_MS, { url, ...clientData(client) });
  return url;
}
