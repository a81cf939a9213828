'use client';

import { useId } from 'react';
import { CheckboxField, FieldError } from '../../components/field';
import { EVENT_GROUPS } from './event-groups';
import { EventGroupFieldset } from './event-group-fieldset';

/** The events an endpoint is sent: everything, or types picked from the catalogue. */
export interface EventChoice {
  all: boolean;
  /** Kept while "All events" is on, so turning it off gives the earlier picks back. */
  types: string[];
}

export function EventPicker({ value, onChange, error }: { value: EventChoice; onChange: (next: EventChoice) => void; error?: string }) {
  const errorId = `${useId()}-error`;
  const picked = new Set(value.types);

  const change = (types: string[], checked: boolean) => {
    const next = new Set(picked);
    for (const type of types) {
      if (checked) next.add(type);
      else next.delete(type);
    }
    onChange({ ...value, types: [...next] });
  };

  return (
    <fieldset aria-describedby={error ? errorId : undefined} data-testid="event-picker">
      <legend className="mb-1.5 text-sm font-medium text-slate-700">Events</legend>
      <CheckboxField
        label="All events (*)"
        checked={value.all}
        onChange={(event) => onChange({ ...value, all: event.target.checked })}
        description="Every event type, including the ones added to the catalogue later."
      />
      {/* With every event on there is nothing to pick: the catalogue folds away until it is turned off. */}
      {!value.all && (
        <>
          <div className="mt-3 max-h-64 space-y-5 overflow-y-auto rounded-lg border border-slate-200 bg-slate-50/60 p-3" data-testid="event-catalogue">
            {EVENT_GROUPS.map((group) => (
              <EventGroupFieldset key={group.prefix} group={group} selected={(type) => picked.has(type)} onChange={change} />
            ))}
          </div>
          <p className="mt-1.5 text-xs text-slate-500" aria-live="polite" data-testid="event-count">
            {picked.size === 1 ? '1 event type' : `${picked.size} event types`} selected
          </p>
        </>
      )}
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </fieldset>
  );
}
