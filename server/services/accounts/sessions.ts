import { and, desc, eq, gt, ne } from 'drizzle-orm';
import { sessions } from '@/db/schema';
import type { Deps } from '../../deps';
import { forbidden, notFound } from '../../errors';
import type { Principal } from '../shared/principal';
import { deviceInWords } from './device';
import { recordForPerson } from './person-audit';

/** One of a person's signed-in sessions, as their account page lists it. Never its token: that is the session's secret. */
export interface SessionView {
  id: string;
  device: string;
  userAgent: string | null;
  /** The client address it signed in from (TRUSTED_PROXY_CIDRS decides which hop that is). */
  ipAddress: string | null;
  signedInAt: Date;
  /** When the dashboard last heard from it, to {@link LAST_SEEN_GRAIN_MS}. */
  lastSeenAt: Date;
  expiresAt: Date;
  /** The session this request came with: "this device". */
  current: boolean;
}

/**
 * How finely "last seen" is kept: a session's row is written at most once in this long by the
 * dashboard's requests (touchSession), not on every one.
 */
export const LAST_SEEN_GRAIN_MS = 5 * 60_000;

/**
 * The time a session's row is judged and written by: the real time, never deps.clock. better-auth
 * creates, refreshes and expires sessions by the process's own time (Date), so a session's times
 * must all be of that clock: under TEST_CLOCK=on, a list filtered by the moved clock hid the
 * sessions still signed in (and, moved back, showed expired ones), and "last seen" came out after
 * the session's own expiry (docs/test-clock.md, "what the clock does not move").
 */
const sessionTime = () => new Date();

/** The person signed in to the dashboard, and the session they came with; an API key has no sessions to manage. */
function signedInPerson(principal: Principal): { userId: string; sessionId: string | null } {
  if (!principal.userId || principal.keyId) throw forbidden('Sessions are managed by the person signed in to the dashboard');
  return { userId: principal.userId, sessionId: principal.sessionId ?? null };
}

/** The person's sessions that have not expired, this one first, then the most recently seen. */
export async function listSessions(deps: Pick<Deps, 'db'>, principal: Principal): Promise<SessionView[]> {
  const person = signedInPerson(principal);
  const rows = await deps.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, person.userId), gt(sessions.expiresAt, sessionTime())))
    .orderBy(desc(sessions.updatedAt), desc(sessions.createdAt));
  const views = rows.map((row) => ({
    id: row.id,
    device: deviceInWords(row.userAgent),
    userAgent: row.userAgent,
    ipAddress: row.ipAddress,
    signedInAt: row.createdAt,
    lastSeenAt: row.updatedAt,
    expiresAt: row.expiresAt,
    current: row.id === person.sessionId,
  }));
  return [...views.filter((view) => view.current), ...views.filter((view) => !view.current)];
}

/**
 * Signs out one of the person's sessions: its row goes, so its cookie is refused from the next
 * request on. Another person's session, or one already gone, is NOT_FOUND, the same answer, so an
 * id tells nothing about sessions that are not the caller's.
 */
export async function signOutSession(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, sessionId: string): Promise<{ id: string }> {
  const person = signedInPerson(principal);
  return deps.db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(sessions)
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, person.userId)))
      .returning({ id: sessions.id, userAgent: sessions.userAgent, ipAddress: sessions.ipAddress });
    if (!gone) throw notFound('Session');
    await recordForPerson(tx, deps, {
      userId: person.userId,
      action: 'user.sessions_signed_out',
      origin: principal.origin ?? null,
      details: { scope: gone.id === person.sessionId ? 'this' : 'one', sessions: 1, device: deviceInWords(gone.userAgent), ipAddress: gone.ipAddress },
    });
    return { id: gone.id };
  });
}

/** Signs out every session of the person but the one this request came with. Nothing to sign out records nothing. */
export async function signOutOtherSessions(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal): Promise<{ signedOut: number }> {
  const person = signedInPerson(principal);
  if (!person.sessionId) throw forbidden('Sign in to the dashboard to sign out your other sessions');
  const current = person.sessionId;
  return deps.db.transaction(async (tx) => {
    const gone = await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, person.userId), ne(sessions.id, current)))
      .returning({ id: sessions.id });
    if (gone.length > 0) {
      await recordForPerson(tx, deps, { userId: person.userId, action: 'user.sessions_signed_out', origin: principal.origin ?? null, details: { scope: 'others', sessions: gone.length } });
    }
    return { signedOut: gone.length };
  });
}

/**
 * "Last seen": the session's updated_at, moved to now by a dashboard request at most once per
 * {@link LAST_SEEN_GRAIN_MS}. better-auth refreshes a session by its expiry, not by this column,
 * so touching it changes nothing of how long a session lasts.
 */
export async function touchSession(deps: Pick<Deps, 'db'>, session: { id: string; updatedAt: Date }): Promise<void> {
  const now = sessionTime();
  if (now.getTime() - new Date(session.updatedAt).getTime() < LAST_SEEN_GRAIN_MS) return;
  await deps.db.update(sessions).set({ updatedAt: now }).where(eq(sessions.id, session.id));
}
