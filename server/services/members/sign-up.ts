import type { Deps } from '../../deps';
import { ensureOrganizationOfUser } from '../organizations/organizations';
import type { RequestOrigin } from '../shared/principal';
import { acceptInvitation, InvitationRefused } from './invitations';

/**
 * The cookie the invitation page sets before it sends a new person to sign-up: the sign-up hook
 * reads it to land them in the inviting organization (docs/teams.md).
 */
export const INVITATION_COOKIE = 'eumail_invitation';

export function invitationTokenOf(headers: Headers | undefined): string | null {
  const cookie = headers?.get('cookie') ?? '';
  const match = new RegExp(`(?:^|;\\s*)${INVITATION_COOKIE}=([A-Za-z0-9_-]{43})(?:;|$)`).exec(cookie);
  return match?.[1] ?? null;
}

/**
 * Where a new account lands: in the organization that invited its address when the sign-up
 * carries a valid invitation for it (and then no organization of its own), else in a new
 * organization it owns. An invitation that cannot be used (expired, used, another address) is
 * no reason to refuse the account: it gets its own organization, as any sign-up does.
 */
export async function landNewUser(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'jobs' | 'metrics' | 'log'>,
  user: { id: string; name: string; email: string },
  request: { headers?: Headers; origin: RequestOrigin | null },
): Promise<void> {
  const token = invitationTokenOf(request.headers);
  if (token) {
    try {
      await deps.db.transaction((tx) => acceptInvitation(tx, deps, token, user, request.origin));
      return;
    } catch (error) {
      if (!(error instanceof InvitationRefused) && !(error instanceof Error && 'appCode' in error)) throw error;
      deps.log.info({ userId: user.id, reason: error.message }, 'sign-up invitation not used');
    }
  }
  await ensureOrganizationOfUser(deps, user);
}
