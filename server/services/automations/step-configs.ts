import { z } from 'zod';
import type { StepType } from '../../vocabulary/automations';
import { AddressError, parseMailbox } from '../shared/addresses';
import { conditionSchema } from './conditions';
import { customEventName, propertyKey, shortText, uuidOf, variableRef, waitDuration } from './fields';
import { AUTOMATION_LIMITS } from './limits';
import { triggerSchemaFor } from './trigger';

// Each step type's config, in Resend's wire names (what their SDK sends: event_name, template,
// reply_to, topic_id, filter_rule, first_name, segment_id), plus what this service adds beside
// them (a delay until a time of day; a wait's timeout is required). docs/automations.md.

const TIME_OF_DAY = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

const isTimeZone = (name: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
};

export const delayConfig = z
  .strictObject({
    duration: waitDuration.optional(),
    time_of_day: z.string().regex(TIME_OF_DAY, 'must be a time of day, HH:MM (24 hours)').optional().describe('Wait until the next time it is this time of day for the contact'),
    time_zone_property: propertyKey.optional().describe('The contact property (type string) holding the contact\'s time zone (IANA: Europe/Paris)'),
    time_zone: z.string().max(64).refine(isTimeZone, 'must be an IANA time zone such as Europe/Paris').optional().describe('The time zone when the contact has none; UTC when absent'),
  })
  .superRefine((input, ctx) => {
    if ((input.duration === undefined) === (input.time_of_day === undefined)) ctx.addIssue({ code: 'custom', message: 'give either duration ("3 days") or time_of_day ("09:00")' });
    if (input.time_of_day === undefined && (input.time_zone_property !== undefined || input.time_zone !== undefined)) {
      ctx.addIssue({ code: 'custom', message: 'time_zone_property and time_zone go with time_of_day' });
    }
  });

const mailbox = () =>
  z.string().max(320).superRefine((text, ctx) => {
    try {
      parseMailbox(text);
    } catch (error) {
      if (!(error instanceof AddressError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
    }
  });

const variableValue = z.union([shortText, z.number(), z.boolean(), variableRef]);

export const sendEmailConfig = z.strictObject({
  template: z.strictObject({
    id: uuidOf('published templates'),
    variables: z
      .record(z.string().min(1).max(100), variableValue)
      .refine((map) => Object.keys(map).length <= AUTOMATION_LIMITS.variables, `must give at most ${AUTOMATION_LIMITS.variables} variables`)
      .optional()
      .describe('Values for the template\'s variables: literals, or { "var": "contact.first_name" } / { "var": "event.plan" }'),
  }),
  subject: z.string().min(1).max(998).optional().describe('In place of the template\'s subject'),
  from: mailbox().optional().describe('The sender; the template\'s when absent (one of the two must give one)'),
  reply_to: z.union([mailbox(), z.array(mailbox()).max(50)]).optional(),
  topic_id: uuidOf('topics').optional().describe('The topic the email belongs to: contacts out of it are skipped'),
});

export const waitForEventConfig = z.strictObject({
  event_name: customEventName,
  timeout: waitDuration.describe('How long to wait before taking the timeout connection (required here; at most 30 days)'),
  filter_rule: conditionSchema.optional().describe('Only an event whose payload matches (event.<field> rules)'),
});

const nameValue = z.union([z.string().max(200), z.null(), variableRef]);

export const contactUpdateConfig = z
  .strictObject({
    first_name: nameValue.optional(),
    last_name: nameValue.optional(),
    unsubscribed: z.union([z.boolean(), variableRef]).optional(),
    properties: z
      .record(propertyKey, z.union([shortText, z.number(), z.boolean(), z.null(), variableRef]))
      .refine((map) => Object.keys(map).length <= AUTOMATION_LIMITS.properties, `must set at most ${AUTOMATION_LIMITS.properties} properties`)
      .optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'must change something: first_name, last_name, unsubscribed or properties');

export const contactDeleteConfig = z.strictObject({});

export const addToSegmentConfig = z.strictObject({ segment_id: uuidOf('segments') });

const CONFIGS: Record<Exclude<StepType, 'trigger'>, z.ZodType> = {
  delay: delayConfig,
  send_email: sendEmailConfig,
  wait_for_event: waitForEventConfig,
  condition: conditionSchema,
  contact_update: contactUpdateConfig,
  contact_delete: contactDeleteConfig,
  add_to_segment: addToSegmentConfig,
};

/** The schema one step's config is read with. */
export const configSchemaFor = (type: StepType, config: Record<string, unknown>): z.ZodType => (type === 'trigger' ? triggerSchemaFor(config) : CONFIGS[type]);

export type DelayConfig = z.infer<typeof delayConfig>;
export type SendEmailConfig = z.infer<typeof sendEmailConfig>;
export type WaitForEventConfig = z.infer<typeof waitForEventConfig>;
export type ContactUpdateConfig = z.infer<typeof contactUpdateConfig>;
export type AddToSegmentConfig = z.infer<typeof addToSegmentConfig>;
