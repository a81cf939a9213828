import type { Auth } from './better-auth';
import type { Deps } from '../deps';
import { touchSession } from '../services/accounts/sessions';
import { mustSetUpTwoFactor } from '../services/two-factor';
import { activeMembership } from '../services/members/memberships';
import { activeOrganizationOf } from './active-organization';
import type { Admission } from '../services/api-keys/admission';
import type { Mode, Principal } from '../services/shared/principal';
import type { Context } from '../trpc/context';
import { requestOrigin } from '../http/request-origin';

/** The dashboard's view switch: the `eumail_mode` cookie, live unless it says test. */
export const DASHBOARD_MODE_COOKIE = 'eumail_mode';

function dashboardMode(headers: Headers): Mode {
  const cookie = headers.get('cookie') ?? '';
  return new RegExp(`(?:^|;\\s*)${DASHBOARD_MODE_COOKIE}=test(?:;|$)`).test(cookie) ? 'test' : 'live';
}

/**
 * A signed-in person acts for the organization the switcher chose (else their first), within
 * their role there, in the mode the dashboard's switch shows: in test mode they see test emails
 * and keys, and like a test key cannot change live state. A member of an organization that
 * requires two-factor sign-in who has not set it up is marked so: every dashboard procedure but
 * those that set it up refuses them.
 */
export async function principalFromSession(deps: Deps, auth: Auth, headers: Headers): Promise<Principal | null> {
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  // Team membership (issue 32): the active organization and the person's role in it.
  const { organization, role } = await activeMembership(deps, session.user, activeOrganizationOf(headers));
  await touchSession(deps, session.session);
  return {
    organizationId: organization.id,
    permission: 'full_access',
    mode: dashboardMode(headers),
    keyId: null,
    domainId: null,
    userId: session.user.id,
    role,
    plan: organization.plan,
    rateLimitOverride: organization.rateLimitOverride,
    origin: requestOrigin((name) => headers.get(name)),
    sessionId: session.session.id,
    twoFactorSetUpPending: mustSetUpTwoFactor(organization, session.user),
  };
}

export function dashboardContext(deps: Deps, auth: Auth, headers: Headers, requestId: string, setHeader: Context['setHeader']): Context {
  let admission: Promise<Admission | null> | undefined;
  return {
    deps,
    requestId,
    channel: 'dashboard',
    // People in the dashboard are not rate limited: the limit is on API traffic.
    authenticate: () => (admission ??= principalFromSession(deps, auth, headers).then((principal) => (principal ? { principal, rateLimit: null } : null))),
    setHeader,
    header: (name) => headers.get(name) ?? undefined,
  };
}
