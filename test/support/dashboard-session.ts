import { eq } from 'drizzle-orm';
import { members, organizations } from '@/db/schema';
import { dashboardContext } from '@/server/auth/session-context';
import { appRouter } from '@/server/routers';
import { createCallerFactory } from '@/server/trpc/init';
import { confirmOwnerByOperator } from '@/server/services/organizations/owner-confirmation';
import type { TestApp } from './app';
import type { Role } from '@/server/vocabulary/roles';

/** A person signed up through better-auth, as the dashboard does: the session cookie and the organization it made. */
export interface DashboardPerson {
  email: string;
  cookie: string;
  userId: string;
  organizationId: string;
}

export const ORIGIN = 'http://127.0.0.1:3000';

const createCaller = createCallerFactory(appRouter);

/** The dashboard's procedures, called in-process as the person whose session `cookie` is. */
export const dashboardCaller = (app: TestApp, cookie: string) => createCaller(dashboardContext(app.runtime.deps, app.runtime.auth, new Headers({ cookie }), 'req-1', () => {}));

/** A tRPC call as the dashboard makes it (the session cookie, no API key). */
export async function dashboardCall(app: TestApp, cookie: string, kind: 'query' | 'mutation', path: string, input: unknown = {}) {
  const url = kind === 'query' ? `${app.url}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}` : `${app.url}/api/trpc/${path}`;
  const response = await fetch(url, {
    method: kind === 'query' ? 'GET' : 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: kind === 'mutation' ? JSON.stringify(input) : undefined,
  });
  const body = await response.json();
  return { status: response.status, body, data: body.result?.data };
}

/**
 * Confirms the owner's address of the organization a sign-up made, as the operator's org:confirm
 * does: for tests that are not about the confirmation (test/owner-confirmation.test.ts uses the
 * mailed link) but send live mail, which waits on it.
 */
export async function confirmOwnerOf(app: TestApp, ownerEmail: string): Promise<void> {
  const [organization] = await app.runtime.deps.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.ownerEmail, ownerEmail.toLowerCase()));
  if (!organization) throw new Error(`no organization owned by ${ownerEmail}`);
  await confirmOwnerByOperator(app.runtime.deps, organization.id);
}

/** The password every test person signs up with. */
export const PASSWORD = 'correct horse battery';

/**
 * Signs up as the dashboard does; the owner's address stays unconfirmed (no live sending) unless
 * `confirmed`. `cookie`: what the browser holds already (the invitation page's cookie, for an invited sign-up).
 */
export async function signUpPerson(app: TestApp, email: string, options: { confirmed?: boolean; name?: string; cookie?: string } = {}): Promise<DashboardPerson> {
  const response = await fetch(`${app.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN, ...(options.cookie ? { cookie: options.cookie } : {}) },
    body: JSON.stringify({ name: options.name ?? 'Ada', email, password: PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const { user } = (await response.json()) as { user: { id: string } };
  const organization = await dashboardCall(app, cookie, 'query', 'organization.current');
  if (options.confirmed) await confirmOwnerOf(app, email);
  return { email, cookie, userId: user.id, organizationId: organization.data.id };
}

/** Whether a session cookie still signs in to the dashboard. */
export const isSignedIn = async (app: TestApp, cookie: string) => (await dashboardCall(app, cookie, 'query', 'organization.current')).status === 200;

/** Moves a signed-up person into another organization as a member who is not its owner (a developer unless `role` says). */
export async function makeMemberOf(app: TestApp, person: DashboardPerson, organizationId: string, role: Role = 'developer'): Promise<void> {
  await app.runtime.deps.db.update(members).set({ organizationId, role }).where(eq(members.userId, person.userId));
}
