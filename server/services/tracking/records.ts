import { isIPv4, isIPv6 } from 'node:net';
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { emailEvents, emails } from '@/db/schema';
import type { Deps } from '../../deps';
import { recordEmailEvents } from '../emails/events';
import { judgeClick, judgeOpen, type Judgement } from './machine';
import { verifyToken } from './tokens';

/** A repeat open of one email, or click of one link, within this window is not recorded again. */
const OPEN_DEDUPE_MS = 60_000;
const CLICK_DEDUPE_MS = 60_000;
const USER_AGENT_MAX = 512;
/** How far back the clicks of an email are read to find a burst over every link (machine.ts). */
const BURST_LOOKBACK_MS = 5 * 60_000;
const BURST_LOOKBACK_ROWS = 200;

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

function clientData(client: TrackingClient | undefined, judgement: Judgement): Record<string, string | boolean> {
  const data: Record<string, string | boolean> = {};
  const userAgent = client?.userAgent?.slice(0, USER_AGENT_MAX);
  if (userAgent) data.userAgent = userAgent;
  const ip = truncateIp(client?.ip);
  if (ip) data.ip = ip;
  data.machine = judgement.machine;
  if (judgement.reason) data.machineReason = judgement.reason;
  return data;
}

type TrackingDeps = Pick<Deps, 'db' | 'clock' | 'encryptionKey' | 'jobs' | 'config'>;

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

/** When the email was first recorded delivered (to any of its recipients); null before that. */
async function firstDeliveredAt(tx: Db, emailId: string): Promise<Date | null> {
  const [row] = await tx
    .select({ at: emailEvents.createdAt })
    .from(emailEvents)
    .where(and(eq(emailEvents.emailId, emailId), eq(emailEvents.type, 'email.delivered')))
    .orderBy(asc(emailEvents.createdAt))
    .limit(1);
  return row?.at ?? null;
}

async function recentClicks(tx: Db, emailId: string, since: Date) {
  const rows = await tx
    .select({ url: sql<string>`${emailEvents.data}->>'url'`, at: emailEvents.createdAt })
    .from(emailEvents)
    .where(and(eq(emailEvents.emailId, emailId), eq(emailEvents.type, 'email.clicked'), gt(emailEvents.createdAt, since)))
    .orderBy(desc(emailEvents.createdAt))
    .limit(BURST_LOOKBACK_ROWS);
  return rows.filter((row) => typeof row.url === 'string');
}

/** An event recorded before machines were told apart counts as a person's. */
const isMachine = sql`coalesce((${emailEvents.data}->>'machine')::boolean, false)`;

type Kind = 'email.opened' | 'email.clicked';
const TALLY: Record<Kind, { all: 'opened' | 'clicked'; human: 'openedHuman' | 'clickedHuman' }> = {
  'email.opened': { all: 'opened', human: 'openedHuman' },
  'email.clicked': { all: 'clicked', human: 'clickedHuman' },
};

async function record(deps: TrackingDeps, email: LoadedEmail, type: Kind, windowMs: number, client: TrackingClient | undefined, url?: string): Promise<boolean> {
  const now = deps.clock.now();
  const since = new Date(now.getTime() - windowMs);
  return deps.db.transaction(async (tx) => {
    const deliveredAt = await firstDeliveredAt(tx, email.id);
    const request = { userAgent: client?.userAgent, address: client?.ip, at: now, deliveredAt, machineNetworks: deps.config.trackingMachineCidrs };
    const judgement =
      url === undefined
        ? judgeOpen(request)
        : judgeClick({ ...request, url, linkCount: email.trackedLinks.length, recentClicksOfEmail: await recentClicks(tx, email.id, new Date(now.getTime() - BURST_LOOKBACK_MS)) });
    // Repeats are absorbed per kind of client: a scanner's click does not hide the person's that follows it.
    const conditions = [eq(emailEvents.emailId, email.id), eq(emailEvents.type, type), gt(emailEvents.createdAt, since), sql`${isMachine} = ${sql.raw(judgement.machine ? 'true' : 'false')}`];
    if (url !== undefined) conditions.push(sql`${emailEvents.data}->>'url' = ${url}`);
    const [recent] = await tx
      .select({ id: emailEvents.id })
      .from(emailEvents)
      .where(and(...conditions))
      .limit(1);
    if (recent) return false;
    // A broadcast counts each email opened (or clicked) once, and once more among the human counts
    // at its first open (or click) by a person: only those events move its counts.
    const counts: Partial<Record<'opened' | 'clicked' | 'openedHuman' | 'clickedHuman', number>> = {};
    if (email.broadcastId) {
      const ofType = and(eq(emailEvents.emailId, email.id), eq(emailEvents.type, type));
      const [earlier] = await tx
        .select({ any: sql<number>`count(*)::int`, human: sql<number>`(count(*) filter (where not ${isMachine}))::int` })
        .from(emailEvents)
        .where(ofType);
      if (!earlier?.any) counts[TALLY[type].all] = 1;
      if (!judgement.machine && !earlier?.human) counts[TALLY[type].human] = 1;
    }
    const data = { ...(url === undefined ? {} : { url }), ...clientData(client, judgement) };
    await recordEmailEvents(tx, deps, email, [{ type, data, counts }]);
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
  const recorded = await record(deps, email, 'email.opened', OPEN_DEDUPE_MS, client);
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
  if (client?.record !== false) await record(deps, email, 'email.clicked', CLICK_DEDUPE_MS, client, url);
  return url;
}
