import type { Deps } from '../../deps';
import { liveSubscriptionOf, stripeAccountOf } from './accounts';

/**
 * How an upgrade is settled, so the dialog's wording fits before the click: `request` for the
 * operator (no payment provider), `checkout` (Stripe Checkout, from Free or without a subscription
 * that bills), `subscription_update` (a paid plan's subscription moved to the higher price).
 */
export type UpgradeSettlement = 'request' | 'checkout' | 'subscription_update';

export async function upgradeSettlement(deps: Pick<Deps, 'db' | 'config'>, organizationId: string): Promise<UpgradeSettlement> {
  if (!deps.config.stripe) return 'request';
  return liveSubscriptionOf(await stripeAccountOf(deps.db, organizationId)) ? 'subscription_update' : 'checkout';
}
