import type { Deps } from '../../deps';
import { recordForMemberships } from '../audit/sign-ins';
import type { RequestOrigin } from '../shared/principal';

/**
 * A person turned two-factor sign-in on (a code confirmed the set-up) or off: recorded in each of
 * their organizations' logs, after better-auth's own write.
 */
export async function recordTwoFactorSwitch(deps: Pick<Deps, 'db' | 'clock'>, input: { userId: string; enabled: boolean; origin: RequestOrigin }): Promise<void> {
  await recordForMemberships(deps, input.userId, input.enabled ? 'user.two_factor_enabled' : 'user.two_factor_disabled', input.origin, {});
}
