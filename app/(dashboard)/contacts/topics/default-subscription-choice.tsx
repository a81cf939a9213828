import { RadioCards } from '../../../components/radio-cards';
import type { DefaultSubscription } from '../types';
import { DEFAULT_SUBSCRIPTIONS } from './default-subscription';

const OPTIONS = (['opt_in', 'opt_out'] as const).map((value) => ({ value, ...DEFAULT_SUBSCRIPTIONS[value] }));

/** Opt-in or opt-out, each with what it means; fixed once the topic is made. */
export function DefaultSubscriptionChoice({ value, onChange }: { value: DefaultSubscription | null; onChange: (value: DefaultSubscription) => void }) {
  return (
    <RadioCards
      legend="Default subscription"
      description="For contacts who never chose. It cannot be changed later: flipping it would subscribe or unsubscribe every one of them at once."
      name="default_subscription"
      options={OPTIONS}
      value={value}
      onChange={onChange}
    />
  );
}
