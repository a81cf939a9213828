import { cx } from '../../../components/cx';
import type { DefaultSubscription } from '../types';
import { DEFAULT_SUBSCRIPTIONS } from './default-subscription';

/** Opt-in or opt-out, each with what it means; fixed once the topic is made. */
export function DefaultSubscriptionChoice({ value, onChange }: { value: DefaultSubscription | null; onChange: (value: DefaultSubscription) => void }) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">Default subscription</legend>
      <p className="mt-0.5 text-xs text-slate-500">For contacts who never chose. It cannot be changed later: flipping it would subscribe or unsubscribe every one of them at once.</p>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {(['opt_in', 'opt_out'] as const).map((option) => (
          <label
            key={option}
            className={cx(
              'flex cursor-pointer gap-3 rounded-lg border p-3 text-sm',
              value === option ? 'border-indigo-600 bg-indigo-50/60 ring-1 ring-indigo-600' : 'border-slate-200 hover:bg-slate-50',
            )}
          >
            <input type="radio" name="default_subscription" value={option} checked={value === option} onChange={() => onChange(option)} className="mt-0.5 size-4 shrink-0 accent-indigo-600" />
            <span>
              <span className="block font-medium text-slate-900">{DEFAULT_SUBSCRIPTIONS[option].label}</span>
              <span className="mt-0.5 block text-xs text-slate-500">{DEFAULT_SUBSCRIPTIONS[option].meaning}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
