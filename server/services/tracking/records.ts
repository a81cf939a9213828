import { isIPv4, isIPv6 } from 'node:net';
import { and, eq, gt, sql } from 'drizzle-orm';
import { emailEvents, emails } from '@/db/schema';
import type { Deps } from '../../deps';
import { recordEmailEvents } from '../emails/events';
import { tallyEvents } from '../broadcasts/tally';
import { verifyToken } from './tokens';

/** A repeat open of one email, or click of one link, within this window is not recorded again. */
const OPEN_DEDUPE_MS = 60_000;
const CLICK_DEDUPE_MS = 60_000;
const USER_AGENT_MAX = 512;

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

type TrackingDeps = Pick<Deps, 'db' | 'clock' | 'encryptionKey' | 'jobs'>;

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
      broadcastId: emails.broadcastId,
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
    // A broadcast counts each email opened (or clicked) once: only the first such event moves its count.
    const first = email.broadcastId ? (await tx.select({ id: emailEvents.id }).from(emailEvents).where(and(eq(emailEvents.emailId, email.id), eq(emailEvents.type, type))).limit(1)).length === 0 : false;
    await recordEmailEvents(tx, deps, email, [{ type, data }]);
    if (first) await tallyEvents(tx, email.broadcastId, type === 'email.opened' ? { opened: 1 } : { clicked: 1 });
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
