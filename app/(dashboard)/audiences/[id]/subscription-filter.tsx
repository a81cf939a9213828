import { SelectField } from '../../../components/field';
import type { SubscriptionFilter as Filter } from './use-contacts';

const OPTIONS: Array<{ value: Filter; label: string }> = [
  { value: 'all', label: 'All contacts' },
  { value: 'subscribed', label: 'Subscribed' },
  { value: 'unsubscribed', label: 'Unsubscribed' },
];

const isFilter = (value: string): value is Filter => OPTIONS.some((option) => option.value === value);

/** All contacts, or those of one subscription status. */
export function SubscriptionFilter({ value, onChange }: { value: Filter; onChange: (value: Filter) => void }) {
  return (
    <SelectField label="Subscription" name="subscription" className="w-44" value={value} onChange={(event) => onChange(isFilter(event.target.value) ? event.target.value : 'all')}>
      {OPTIONS.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </SelectField>
  );
}
