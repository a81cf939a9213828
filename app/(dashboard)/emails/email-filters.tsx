'use client';

import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { ChoiceSelect } from '../../components/choice-select';
import { TextField } from '../../components/field';
import { FunnelIcon } from 'lucide-react';
import { hasFilters, type EmailFilters } from './filters';
import { EMAIL_STATUSES, STATUS_STYLE } from './statuses';

/** Every status, after the choice of none. */
const STATUS_CHOICES = [{ value: '' as const, label: 'All statuses' }, ...EMAIL_STATUSES.map((status) => ({ value: status, label: STATUS_STYLE[status].label }))];

const same = (a: EmailFilters, b: EmailFilters) => a.status === b.status && a.to === b.to && a.tag === b.tag;

/**
 * Status applies as soon as it is picked; the text filters on Enter or Apply. The fields follow
 * the URL when it changes from elsewhere (Back, Clear, a shared link).
 */
export function EmailFiltersBar({ filters, onChange }: { filters: EmailFilters; onChange: (filters: EmailFilters) => void }) {
  const [draft, setDraft] = useState(filters);
  const [applied, setApplied] = useState(filters);
  if (!same(applied, filters)) {
    setApplied(filters);
    setDraft(filters);
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange(draft);
  };

  const dirty = (draft.to ?? '') !== (filters.to ?? '') || (draft.tag ?? '') !== (filters.tag ?? '');

  return (
    <form
      onSubmit={submit}
      role="search"
      aria-label="Filter emails"
      data-testid="email-filters"
      className="mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[11rem_minmax(0,1fr)_minmax(0,1fr)_auto]"
    >
      <ChoiceSelect
        label="Status"
        name="status"
        choices={STATUS_CHOICES}
        value={draft.status ?? ''}
        onChange={(status) => {
          const next = { ...draft, status: status || undefined };
          setDraft(next);
          onChange(next);
        }}
      />
      <TextField
        label="Recipient"
        hint="Exact address"
        name="to"
        type="search"
        inputMode="email"
        placeholder="name@example.com"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={320}
        value={draft.to ?? ''}
        onChange={(event) => setDraft({ ...draft, to: event.target.value })}
      />
      <TextField
        label="Tag"
        name="tag"
        type="search"
        placeholder="name:value or name"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        value={draft.tag ?? ''}
        onChange={(event) => setDraft({ ...draft, tag: event.target.value })}
      />
      <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-1">
        <Button type="submit" variant={dirty ? 'primary' : 'secondary'}>
          <FunnelIcon className="size-4" />
          Apply
        </Button>
        {hasFilters(filters) && (
          <Button variant="ghost" onClick={() => onChange({})}>
            Clear
          </Button>
        )}
      </div>
    </form>
  );
}
