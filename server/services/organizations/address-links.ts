import type { Deps } from '../../deps';
import type { RequestOrigin } from '../shared/principal';
import { confirmNotificationAddress, describeNotificationLink } from './notification-address';
import { confirmOwnerAddress, describeConfirmationLink, type LinkState } from './owner-confirmation';

/**
 * The page /confirm-address/<token> confirms either kind of mailed address link: the owner's
 * (live sending waits on it) or a notification address's. The token says which: it is in one
 * table or the other, never both (32 random bytes each).
 */
export type AddressPurpose = 'owner' | 'notification';

export async function describeAddressLink(deps: Pick<Deps, 'db' | 'clock'>, token: string): Promise<{ state: LinkState; email: string | null; purpose: AddressPurpose }> {
  const owner = await describeConfirmationLink(deps, token);
  if (owner.state !== 'unknown') return { ...owner, purpose: 'owner' };
  return { ...(await describeNotificationLink(deps, token)), purpose: 'notification' };
}

export async function confirmAddressLink(
  deps: Pick<Deps, 'db' | 'clock'>,
  token: string,
  origin: RequestOrigin | null,
): Promise<{ state: LinkState | 'confirmed'; email: string | null; purpose: AddressPurpose }> {
  const owner = await confirmOwnerAddress(deps, token, origin);
  if (owner.state !== 'unknown') return { ...owner, purpose: 'owner' };
  return { ...(await confirmNotificationAddress(deps, token, origin)), purpose: 'notification' };
}
