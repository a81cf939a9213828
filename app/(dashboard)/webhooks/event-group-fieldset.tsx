import { CheckboxField } from '../../components/field';
import { EVENT_DESCRIPTIONS, type EventGroup } from './event-groups';

/** One group of the catalogue (the email events, …): a checkbox per type with what it means, and the whole group at once. */
export function EventGroupFieldset({
  group,
  selected,
  onChange,
}: {
  group: EventGroup;
  selected: (type: string) => boolean;
  onChange: (types: string[], checked: boolean) => void;
}) {
  const whole = group.types.every(selected);
  return (
    <fieldset data-testid="event-group" data-prefix={group.prefix} className="min-w-0">
      <div className="mb-2 flex items-center justify-between gap-2">
        <legend className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{group.label}</legend>
        <button
          type="button"
          className="text-xs font-medium text-indigo-600 hover:text-indigo-500"
          onClick={() => onChange(group.types, !whole)}
          aria-label={`${whole ? 'Clear' : 'Select all'} ${group.prefix} events`}
        >
          {whole ? 'Clear' : 'Select all'}
        </button>
      </div>
      <div className="space-y-2.5">
        {group.types.map((type) => (
          <CheckboxField
            key={type}
            label={type}
            name="events"
            value={type}
            checked={selected(type)}
            onChange={(event) => onChange([type], event.target.checked)}
            description={EVENT_DESCRIPTIONS[type]}
          />
        ))}
      </div>
    </fieldset>
  );
}
