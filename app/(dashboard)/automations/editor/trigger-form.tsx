'use client';

import { SelectField, TextField } from '../../../components/field';
import { SYSTEM_TRIGGERS } from '../step-kinds';
import { textOf, withField } from './config-fields';

const OWN = '__own__';
const isSystem = (name: string) => SYSTEM_TRIGGERS.some((trigger) => trigger.event === name);

type ReEntry = { type: 'once' } | { type: 'after'; duration: string } | undefined;

/** The trigger: one of this service's events (with what it also needs) or one of your own by name, and re-entry. */
export function TriggerForm({ config, onChange }: { config: Record<string, unknown>; onChange: (config: Record<string, unknown>) => void }) {
  const eventName = textOf(config.event_name);
  const system = isSystem(eventName);
  const reEntry = config.re_entry as ReEntry;
  const keepReEntry = (next: Record<string, unknown>) => (reEntry ? { ...next, re_entry: reEntry } : next);
  const tag = (config.tag ?? {}) as { name?: string; value?: string };
  const setTag = (next: { name?: string; value?: string }) => onChange(withField(config, 'tag', next.name ? { name: next.name, ...(next.value ? { value: next.value } : {}) } : undefined));

  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <SelectField
        label="Starts when"
        value={system ? eventName : OWN}
        data-testid="trigger-event"
        onChange={(event) => onChange(keepReEntry({ event_name: event.target.value === OWN ? '' : event.target.value }))}
      >
        {SYSTEM_TRIGGERS.map((trigger) => (
          <option key={trigger.event} value={trigger.event}>
            {trigger.label}
          </option>
        ))}
        <option value={OWN}>Your own event is sent</option>
      </SelectField>
      {!system && (
        <TextField
          label="Event name"
          value={eventName}
          placeholder="user.created"
          data-testid="trigger-event-name"
          description="Sent with POST /events/send"
          onChange={(event) => onChange(withField(config, 'event_name', event.target.value))}
        />
      )}
      {eventName === 'contact.added_to_segment' && (
        <TextField label="Segment id" value={textOf(config.segment_id)} onChange={(event) => onChange(withField(config, 'segment_id', event.target.value.trim()))} />
      )}
      {eventName === 'contact.topic_subscribed' && <TextField label="Topic id" value={textOf(config.topic_id)} onChange={(event) => onChange(withField(config, 'topic_id', event.target.value.trim()))} />}
      {eventName === 'contact.date_reached' && (
        <>
          <TextField label="Date property" value={textOf(config.property)} placeholder="birthday" onChange={(event) => onChange(withField(config, 'property', event.target.value.trim()))} />
          <TextField
            label="Days after (negative: before)"
            type="number"
            value={textOf(config.offset_days)}
            onChange={(event) => onChange(withField(config, 'offset_days', event.target.value === '' ? undefined : Number(event.target.value)))}
          />
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={config.yearly === true} onChange={(event) => onChange(withField(config, 'yearly', event.target.checked || undefined))} />
            Every year (a birthday)
          </label>
        </>
      )}
      {eventName.startsWith('email.') && (
        <>
          <TextField label="Only emails tagged (name)" value={tag.name ?? ''} onChange={(event) => setTag({ ...tag, name: event.target.value.trim() })} />
          {tag.name && <TextField label="Tag value (any when empty)" value={tag.value ?? ''} onChange={(event) => setTag({ ...tag, value: event.target.value })} />}
        </>
      )}
      <SelectField
        label="A contact may enter"
        value={reEntry?.type ?? 'always'}
        data-testid="trigger-re-entry"
        onChange={(event) => {
          const type = event.target.value;
          onChange(withField(config, 're_entry', type === 'once' ? { type: 'once' } : type === 'after' ? { type: 'after', duration: '30 days' } : undefined));
        }}
      >
        <option value="always">Every time the event happens</option>
        <option value="once">Once, ever</option>
        <option value="after">Again after a while</option>
      </SelectField>
      {reEntry?.type === 'after' && (
        <TextField label="Again after" value={reEntry.duration} placeholder="30 days" onChange={(event) => onChange(withField(config, 're_entry', { type: 'after', duration: event.target.value }))} />
      )}
    </div>
  );
}
