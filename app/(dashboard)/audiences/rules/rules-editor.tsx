import Link from 'next/link';
import { PlusIcon, XIcon } from 'lucide-react';
import { Button } from '../../../components/button';
import { FieldError, SelectField } from '../../../components/field';
import type { ContactProperty } from '../../contacts/types';
import { EngagementConditionFields } from './engagement-condition-fields';
import { PropertyConditionFields } from './property-condition-fields';
import { CONDITION_LIMIT, engagementDraft, propertyDraft, type ConditionDraft, type RulesDraft } from './rule-draft';

/**
 * A segment's rules: whether every condition or any one must hold, and the conditions, each on a
 * property's value or on what the contact did with broadcasts; its problem, by its place, under it.
 */
export function RulesEditor({ draft, onChange, properties, errors }: { draft: RulesDraft; onChange: (draft: RulesDraft) => void; properties: ContactProperty[]; errors: Record<number, string> }) {
  const replace = (index: number, next: ConditionDraft) => onChange({ ...draft, conditions: draft.conditions.map((condition, at) => (at === index ? next : condition)) });
  const remove = (index: number) => onChange({ ...draft, conditions: draft.conditions.filter((_, at) => at !== index) });
  const add = (condition: ConditionDraft) => onChange({ ...draft, conditions: [...draft.conditions, condition] });
  const full = draft.conditions.length >= CONDITION_LIMIT;

  return (
    <fieldset className="space-y-3" data-testid="rules-editor">
      <legend className="text-sm font-medium text-slate-700">Rules</legend>
      <p className="-mt-1 text-xs text-slate-500">
        Its contacts are those who match, unless unsubscribed from everything; kept up to date when the rules change and when a broadcast to it is sent. Opens and
        clicks are a person&apos;s, not a mail scanner&apos;s.
      </p>
      <SelectField label="Match" name="match" className="sm:w-72" value={draft.match} onChange={(event) => onChange({ ...draft, match: event.target.value === 'any' ? 'any' : 'all' })}>
        <option value="all">all of these conditions</option>
        <option value="any">any of these conditions</option>
      </SelectField>
      <ol className="space-y-2">
        {draft.conditions.map((condition, index) => (
          <li key={index} className="rounded-lg border border-slate-200 bg-slate-50/60 p-3" data-testid="rule-condition" data-type={condition.type}>
            <div className="mb-2 flex items-center justify-between gap-2">
              <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">
                {index > 0 && (draft.match === 'all' ? 'and ' : 'or ')}
                {condition.type === 'property' ? 'a property' : 'engagement'}
              </p>
              <button
                type="button"
                onClick={() => remove(index)}
                disabled={draft.conditions.length === 1}
                aria-label={`Remove condition ${index + 1}`}
                title="Remove this condition"
                className="inline-flex rounded-md p-1 text-slate-400 hover:bg-red-50 hover:text-red-600 disabled:invisible"
              >
                <XIcon className="size-4" />
              </button>
            </div>
            {condition.type === 'property' ? (
              <PropertyConditionFields condition={condition} properties={properties} onChange={(next) => replace(index, next)} />
            ) : (
              <EngagementConditionFields condition={condition} onChange={(next) => replace(index, next)} />
            )}
            {errors[index] && <FieldError id={`condition-${index}-error`}>{errors[index]}</FieldError>}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="secondary" size="sm" onClick={() => add(propertyDraft(properties))} disabled={full || properties.length === 0}>
          <PlusIcon className="size-4" />
          Property condition
        </Button>
        <Button variant="secondary" size="sm" onClick={() => add(engagementDraft())} disabled={full}>
          <PlusIcon className="size-4" />
          Engagement condition
        </Button>
        {properties.length === 0 && (
          <span className="text-xs text-slate-500">
            No contact property yet:{' '}
            <Link href="/contacts/properties" className="font-medium text-indigo-600 hover:underline">
              define one
            </Link>{' '}
            to compare its values.
          </span>
        )}
        {full && <span className="text-xs text-slate-500">At most {CONDITION_LIMIT} conditions.</span>}
      </div>
    </fieldset>
  );
}
