import { z } from 'zod';
import { EMAIL_TRIGGER_EVENTS, RESERVED_EVENT_PREFIXES, SYSTEM_TRIGGER_EVENTS, type SystemTriggerEvent } from '../../vocabulary/automations';
import { durationText, customEventName, propertyKey, uuidOf } from './fields';
import { AUTOMATION_LIMITS } from './limits';

// A trigger's config is Resend's `{ event_name }`: the customer's own event. The events this service
// raises itself (a contact created, added to a segment, subscribed to a topic, a date property's
// day, an email's outcome) are triggers under their own event names, with what they need beside.

/** Whether a contact may start the automation again: absent, every time the event comes. */
const reEntry = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('once') }).describe('Once per contact, ever'),
    z
      .strictObject({ type: z.literal('after'), duration: durationText({ shortestS: 60, longestS: AUTOMATION_LIMITS.longestReEntryS, longest: '365 days' }) })
      .describe('Again once this long has passed since the contact last started it'),
  ])
  .optional()
  .describe('Absent: every event starts a run');

const system = <N extends SystemTriggerEvent, S extends z.ZodRawShape>(name: N, shape: S) => z.strictObject({ event_name: z.literal(name), re_entry: reEntry, ...shape });

const emailTrigger = (name: (typeof EMAIL_TRIGGER_EVENTS)[number]) =>
  system(name, {
    tag: z
      .strictObject({ name: z.string().min(1).max(256), value: z.string().max(256).optional() })
      .optional()
      .describe('Only emails carrying this tag (any value when value is absent)'),
  });

const SYSTEM_TRIGGERS = {
  'contact.created': system('contact.created', {}),
  'contact.added_to_segment': system('contact.added_to_segment', { segment_id: uuidOf('segments') }),
  'contact.topic_subscribed': system('contact.topic_subscribed', { topic_id: uuidOf('topics') }),
  'contact.date_reached': system('contact.date_reached', {
    property: propertyKey.describe('A contact property of type date'),
    offset_days: z.number().int('must be a whole number').min(-365).max(365).optional().describe('Days after the date (negative: before); 0 when absent'),
    yearly: z.boolean().optional().describe('Every year on the day (a birthday), not only the first time'),
  }),
  'email.delivered': emailTrigger('email.delivered'),
  'email.opened': emailTrigger('email.opened'),
  'email.clicked': emailTrigger('email.clicked'),
  'email.bounced': emailTrigger('email.bounced'),
  'email.complained': emailTrigger('email.complained'),
} satisfies Record<SystemTriggerEvent, z.ZodType>;

const customTrigger = z.strictObject({
  event_name: customEventName,
  re_entry: reEntry,
  create_contact: z
    .boolean()
    .optional()
    .describe(
      'true: an event sent (POST /events/send) for an address that is no contact creates the contact (subscribed, in no segment, as POST /contacts) and then starts the run. A test key\'s event creates none. Absent or false: such an event starts nothing',
    ),
});

/** The schema a trigger's config is read with, chosen by its event name. */
export function triggerSchemaFor(config: Record<string, unknown>): z.ZodType {
  const name = config.event_name;
  if (typeof name === 'string' && (SYSTEM_TRIGGER_EVENTS as readonly string[]).includes(name)) return SYSTEM_TRIGGERS[name as SystemTriggerEvent];
  if (typeof name === 'string' && RESERVED_EVENT_PREFIXES.some((prefix) => name.toLowerCase().startsWith(prefix))) {
    return z.any().superRefine((_, ctx) => {
      ctx.addIssue({ code: 'custom', path: ['event_name'], message: `"${name}" is not an event a trigger can start on; this service's are ${SYSTEM_TRIGGER_EVENTS.join(', ')}, and your own event names may not start with ${RESERVED_EVENT_PREFIXES.join(' ')}` });
    });
  }
  return customTrigger;
}

/** Every trigger config, for the OpenAPI document. */
export const triggerConfigDoc = z.union([customTrigger, ...Object.values(SYSTEM_TRIGGERS)]);

export type TriggerConfig = z.infer<typeof customTrigger> | z.infer<(typeof SYSTEM_TRIGGERS)[SystemTriggerEvent]>;
