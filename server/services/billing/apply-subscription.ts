import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { OPERATOR } from '../audit/record';
import { billingPeriodOf } from '../plans/billing-period';
import { changePlan } from '../plans/changes';
import type { StripeAccount } from './accounts';
import type { Stripe } from './stripe-client';
import { recordSubscriptionState } from './subscription-state';

const DAY_MS = 86_400_000;

/**
 * `customer.subscription.created|updated|deleted`: the subscription's newest state is recorded (an
 * older one arriving late is dropped). These events never raise a plan: only a payment does
 * (checkout paid, invoice paid). A deleted subscription returns the organization to Free at the
 * end of the period paid for: at once when it ended on a month's boundary (a cancellation at the
 * period's end arrives just after it), else at the end of the current month.
 */
export async function applySubscriptionEvent(tx: Db, deps: Pick<Deps, 'clock' | 'config'>, event: Stripe.Event, account: StripeAccount): Promise<string> {
  const subscription = event.data.object as Stripe.Subscription;
  if (account.subscriptionId && account.subscriptionId !== subscription.id && event.type === 'customer.subscription.deleted') return 'ignored: not the organization’s current subscription';
  const recorded = await recordSubscriptionState(tx, deps.config.stripe!, account, subscription, new Date(event.created * 1000));
  if (!recorded) return 'ignored: older than the subscription state held';
  if (event.type !== 'customer.subscription.deleted') return `subscription ${subscription.status}`;
  const endedAt = new Date((subscription.ended_at ?? event.created) * 1000);
  const atBoundary = endedAt.getTime() - billingPeriodOf(endedAt).start.getTime() < DAY_MS;
  const { change } = await changePlan({ db: tx, clock: deps.clock }, account.organizationId, 'free', { db: tx, by: OPERATOR, immediately: atBoundary, auditDetails: { via: 'stripe', stripeEventId: event.id } });
  return change.kind === 'unchanged' ? 'subscription ended, already on Free' : `subscription ended: Free from ${change.effectiveAt.toISOString()}`;
}
