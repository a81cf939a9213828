'use client';

import { useQuery } from '@tanstack/react-query';
import { SelectField, TextField } from '../../../components/field';
import { useTRPC } from '../../../lib/trpc';
import { TemplateSelect } from '../../templates/template-select';
import { unpublished } from '../../templates/template-choices';
import type { StepType } from '../types';
import { JsonField, textOf, withField } from './config-fields';
import { TriggerForm } from './trigger-form';

type Config = Record<string, unknown>;
interface FormProps {
  config: Config;
  onChange: (config: Config) => void;
}

const OPERATORS: Array<[string, string]> = [
  ['eq', 'is'],
  ['neq', 'is not'],
  ['gt', 'is more than'],
  ['gte', 'is at least'],
  ['lt', 'is less than'],
  ['lte', 'is at most'],
  ['contains', 'contains'],
  ['starts_with', 'starts with'],
  ['ends_with', 'ends with'],
  ['exists', 'is set'],
  ['is_empty', 'is empty'],
];
const NO_VALUE = new Set(['exists', 'is_empty']);

/** A rule's value as typed: true, false, null and numbers are themselves, the rest text. */
function valueOf(text: string): unknown {
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null') return null;
  if (text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  return text;
}
const textOfValue = (value: unknown) => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

function DelayForm({ config, onChange }: FormProps) {
  const byTime = config.time_of_day !== undefined;
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <SelectField label="Wait" value={byTime ? 'time' : 'duration'} onChange={(event) => onChange(event.target.value === 'time' ? { time_of_day: '09:00' } : { duration: '1 day' })}>
        <option value="duration">For a while</option>
        <option value="time">Until a time of day</option>
      </SelectField>
      {byTime ? (
        <>
          <TextField label="Time of day (HH:MM)" value={textOf(config.time_of_day)} onChange={(event) => onChange(withField(config, 'time_of_day', event.target.value))} />
          <TextField label="Time zone" placeholder="UTC" value={textOf(config.time_zone)} onChange={(event) => onChange(withField(config, 'time_zone', event.target.value.trim()))} />
          <TextField
            label="Contact property with its time zone"
            value={textOf(config.time_zone_property)}
            onChange={(event) => onChange(withField(config, 'time_zone_property', event.target.value.trim()))}
          />
        </>
      ) : (
        <TextField
          label="Duration"
          value={textOf(config.duration)}
          placeholder="3 days"
          description="30 minutes to 30 days: 12 hours, 3 days, 1 week"
          data-testid="delay-duration"
          onChange={(event) => onChange(withField(config, 'duration', event.target.value))}
        />
      )}
    </div>
  );
}

function SendEmailForm({ config, onChange, stepKey }: FormProps & { stepKey: string }) {
  const template = (config.template ?? { id: '' }) as { id: string; variables?: Record<string, unknown> };
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <TemplateSelect
          label="Template"
          value={template.id}
          onChange={(id) => onChange({ ...config, template: { ...template, id } })}
          unusable={unpublished}
          unusableShown="disabled"
          placeholder="Choose a published template"
          unknownChoice="A template past the first 100"
          testId="send-email-template"
          loadErrorId={`${stepKey}-templates-error`}
        />
      </div>
      <TextField label="Subject (the template's when empty)" value={textOf(config.subject)} onChange={(event) => onChange(withField(config, 'subject', event.target.value))} />
      <TextField label="From (the template's when empty)" value={textOf(config.from)} placeholder="Acme <hello@acme.com>" onChange={(event) => onChange(withField(config, 'from', event.target.value))} />
      <div className="sm:col-span-2">
        <JsonField
          label="Variables (JSON)"
          value={template.variables}
          description='Literals, or { "var": "contact.first_name" } / { "var": "event.plan" }'
          onChange={(variables) => onChange({ ...config, template: variables === undefined ? { id: template.id } : { ...template, variables } })}
        />
      </div>
    </div>
  );
}

function WaitForEventForm({ config, onChange }: FormProps) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <TextField label="Event name" value={textOf(config.event_name)} placeholder="order.completed" onChange={(event) => onChange(withField(config, 'event_name', event.target.value))} />
      <TextField label="Time out after" value={textOf(config.timeout)} placeholder="3 days" onChange={(event) => onChange(withField(config, 'timeout', event.target.value))} />
      <div className="sm:col-span-2">
        <JsonField label="Only events matching (JSON rule, optional)" value={config.filter_rule} onChange={(rule) => onChange(withField(config, 'filter_rule', rule))} />
      </div>
    </div>
  );
}

/** One rule in fields; a group (and / or) as JSON. */
function ConditionForm({ config, onChange }: FormProps) {
  if (config.type !== 'rule') {
    return (
      <div className="space-y-2">
        <JsonField label="Rules (JSON)" value={config} onChange={(value) => value && typeof value === 'object' && onChange(value as Config)} />
        <button type="button" className="text-xs font-medium text-indigo-600 hover:underline" onClick={() => onChange({ type: 'rule', field: 'contact.first_name', operator: 'exists' })}>
          Use a single rule instead
        </button>
      </div>
    );
  }
  const operator = textOf(config.operator);
  return (
    <div className="space-y-2">
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField
          label="Field"
          value={textOf(config.field)}
          placeholder="contact.first_name"
          description="contact.…, event.…, email.opened, email.clicked"
          onChange={(event) => onChange({ ...config, field: event.target.value.trim() })}
        />
        <SelectField
          label="Operator"
          value={operator}
          onChange={(event) => {
            const next: Config = { ...config, operator: event.target.value };
            if (NO_VALUE.has(event.target.value)) delete next.value;
            onChange(next);
          }}
        >
          {OPERATORS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        {!NO_VALUE.has(operator) && (
          <TextField
            label="Value"
            value={textOfValue(config.value)}
            description="true, false, null and numbers are read as such"
            onChange={(event) => onChange({ ...config, value: valueOf(event.target.value) })}
          />
        )}
      </div>
      <button type="button" className="text-xs font-medium text-indigo-600 hover:underline" onClick={() => onChange({ type: 'and', rules: [config] })}>
        Combine rules (and / or) as JSON
      </button>
    </div>
  );
}

function ContactUpdateForm({ config, onChange }: FormProps) {
  const unsubscribed = config.unsubscribed === true ? 'yes' : config.unsubscribed === false ? 'no' : '';
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      <TextField label="First name" value={textOf(config.first_name)} placeholder="unchanged" onChange={(event) => onChange(withField(config, 'first_name', event.target.value))} />
      <TextField label="Last name" value={textOf(config.last_name)} placeholder="unchanged" onChange={(event) => onChange(withField(config, 'last_name', event.target.value))} />
      <SelectField label="Unsubscribed" value={unsubscribed} onChange={(event) => onChange(withField(config, 'unsubscribed', event.target.value === '' ? undefined : event.target.value === 'yes'))}>
        <option value="">Unchanged</option>
        <option value="yes">Unsubscribe from all list mail</option>
        <option value="no">Subscribed</option>
      </SelectField>
      <div className="sm:col-span-3">
        <JsonField label="Properties (JSON)" value={config.properties} description='{ "plan": "pro" } or { "plan": { "var": "event.plan" } }' onChange={(properties) => onChange(withField(config, 'properties', properties))} />
      </div>
    </div>
  );
}

function AddToSegmentForm({ config, onChange }: FormProps) {
  const trpc = useTRPC();
  const segments = useQuery(trpc.segments.list.queryOptions({}));
  const lists = (segments.data?.data ?? []).filter((segment) => segment.rules === null);
  const id = textOf(config.segment_id);
  return (
    <SelectField label="Segment" value={id} onChange={(event) => onChange({ segment_id: event.target.value })} description="A list segment (one made by rules fills itself)">
      <option value="" disabled>
        {segments.isPending ? 'Loading…' : 'Choose a segment'}
      </option>
      {id && !lists.some((segment) => segment.id === id) && <option value={id}>{segments.isPending ? id : 'A segment no longer listed'}</option>}
      {lists.map((segment) => (
        <option key={segment.id} value={segment.id}>
          {segment.name}
        </option>
      ))}
    </SelectField>
  );
}

/** The config form of one step, by its type. */
export function StepConfigForm({ type, stepKey, config, onChange }: FormProps & { type: StepType; stepKey: string }) {
  switch (type) {
    case 'trigger':
      return <TriggerForm config={config} onChange={onChange} />;
    case 'delay':
      return <DelayForm config={config} onChange={onChange} />;
    case 'send_email':
      return <SendEmailForm config={config} onChange={onChange} stepKey={stepKey} />;
    case 'wait_for_event':
      return <WaitForEventForm config={config} onChange={onChange} />;
    case 'condition':
      return <ConditionForm config={config} onChange={onChange} />;
    case 'contact_update':
      return <ContactUpdateForm config={config} onChange={onChange} />;
    case 'add_to_segment':
      return <AddToSegmentForm config={config} onChange={onChange} />;
    case 'contact_delete':
      return <p className="text-sm text-slate-500">The contact is deleted with its history; the run ends here.</p>;
  }
}
