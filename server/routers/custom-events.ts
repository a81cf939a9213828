import { z } from 'zod';
import { CONTACT_CREATIONS } from '../vocabulary/automations';
import { createCustomEvent, deleteCustomEvent, EVENT_FIELD_TYPES, getCustomEvent, listCustomEvents, sendEvent, updateCustomEvent } from '../services/automations';
import { customEventName } from '../services/automations/fields';
import { router } from '../trpc/init';
import { decodePathParam } from '../trpc/path-params';
import { orgProcedure } from '../trpc/procedures';
import { isoDate, pageQuery } from './shared';

// Resend's `events.*` (docs/automations.md, "Your own events"): event names declared with a payload
// schema, and events sent for a contact, which start and wake runs. `GET /events` is not among
// them: it stays the event log (server/routers/events.ts); the declarations list at /events/declared.

/** The path of the declarations' list: not a name an event may be declared under. */
const LIST_SEGMENT = 'declared';

const declarableName = customEventName.refine((name) => name !== LIST_SEGMENT, `"${LIST_SEGMENT}" is the path of the list of declared events (GET /events/declared): choose another name`);

const fieldName = z
  .string()
  .min(1, 'a field name must not be empty')
  .max(50, 'a field name must be at most 50 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'a field name must hold letters, digits, _ and - only (what event.<field> reads)');

const MOST_FIELDS = 50;

const eventSchema = z
  .record(fieldName, z.enum(EVENT_FIELD_TYPES, { message: `must be one of ${EVENT_FIELD_TYPES.join(', ')}` }))
  .refine((schema) => Object.keys(schema).length <= MOST_FIELDS, `must declare at most ${MOST_FIELDS} fields`)
  .describe("The payload's fields and their types (Resend's flat map); a sent payload's fields are checked against it");

/** An event named by its id or by its name (Resend's `identifier`), URL-encoded. */
const identifierParam = z
  .string()
  .meta({ description: "The declared event's id (UUID), or its name URL-encoded", anyOf: [{ format: 'uuid' }, { pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]*$' }] })
  .transform((value, ctx) => {
    const text = decodePathParam(value);
    if (text === null) {
      ctx.addIssue({ code: 'custom', message: 'is not a valid URL-encoded value' });
      return z.NEVER;
    }
    return text;
  })
  .pipe(z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters'));

const customEvent = z
  .object({
    id: z.uuid(),
    name: z.string(),
    schema: z.record(z.string(), z.enum(EVENT_FIELD_TYPES)).nullable(),
    createdAt: isoDate,
    updatedAt: isoDate.nullable().describe('Null until its schema is first changed'),
  })
  .meta({ id: 'CustomEvent' });

const receipt = z
  .object({
    id: z.uuid().describe('The received event, as kept'),
    event: z.string(),
    contactId: z.uuid().nullable().describe('Null when the address is no contact (and no trigger created it): the event is kept and starts nothing'),
    runsStarted: z.number().int().describe('Runs of enabled automations it started (test runs for a test key)'),
    waitsEnded: z.number().int().describe("Runs waiting for it (wait_for_event) that it woke"),
    contactCreation: z
      .enum(CONTACT_CREATIONS)
      .nullable()
      .describe("For an address that was no contact, when an enabled automation's trigger on the event has create_contact: created (a live key), or skipped_test_mode (a test key creates no contact, and starts nothing); otherwise null"),
  })
  .meta({ id: 'EventReceipt' });

const tags = ['Automations'];
const byIdentifier = { identifier: identifierParam };

export const customEventsRouter = router({
  create: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/events', operationId: 'createCustomEvent', tags, summary: "Declare one of your own event names, with its payload's schema (Resend's events.create)" }, successStatus: 201, liveWrite: true, errors: [409] })
    .input(z.strictObject({ name: declarableName, schema: eventSchema.nullable().optional() }))
    .output(customEvent)
    .mutation(({ ctx, input }) => createCustomEvent(ctx.deps, ctx.principal, { name: input.name, schema: input.schema ?? null })),

  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: `/events/${LIST_SEGMENT}`, operationId: 'listCustomEvents', tags, summary: 'List the declared event names, newest first (GET /events is the event log)' } })
    .input(z.strictObject(pageQuery({ max: 100, default: 20 })))
    .output(z.object({ data: z.array(customEvent), nextCursor: z.uuid().nullable() }))
    .query(({ ctx, input }) => listCustomEvents(ctx.deps, ctx.principal, input)),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/events/{identifier}', operationId: 'getCustomEvent', tags, summary: 'Get a declared event by id or by name' } })
    .input(z.strictObject(byIdentifier))
    .output(customEvent)
    .query(({ ctx, input }) => getCustomEvent(ctx.deps, ctx.principal, input.identifier)),

  update: orgProcedure
    .meta({ openapi: { method: 'PATCH', path: '/events/{identifier}', operationId: 'updateCustomEvent', tags, summary: "Replace a declared event's schema (null removes it)" }, liveWrite: true })
    .input(z.strictObject({ ...byIdentifier, schema: eventSchema.nullable().describe('The new schema as a whole; null: payloads are no longer checked') }))
    .output(customEvent)
    .mutation(({ ctx, input }) => updateCustomEvent(ctx.deps, ctx.principal, input.identifier, input.schema)),

  delete: orgProcedure
    .meta({ openapi: { method: 'DELETE', path: '/events/{identifier}', operationId: 'deleteCustomEvent', tags, summary: 'Delete a declaration (the name may still be sent, unchecked)' }, liveWrite: true })
    .input(z.strictObject(byIdentifier))
    .output(z.object({ id: z.uuid().describe("The declaration's id, whichever identifier the path gave"), message: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const removed = await deleteCustomEvent(ctx.deps, ctx.principal, input.identifier);
      return { id: removed.id, message: 'Event deleted' };
    }),

  send: orgProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/events/send',
        operationId: 'sendEvent',
        tags,
        summary: 'Send one of your events for a contact: it starts the automations it triggers and wakes the runs waiting for it (Resend\'s events.send)',
        description: 'Exactly one of email and contact_id. Sent with a test key, it starts and wakes test runs only (their emails simulated). A declared schema checks the payload.',
      },
      successStatus: 202,
    })
    .input(
      z
        .strictObject({
          event: customEventName,
          email: z.string().max(320, 'must be at most 320 characters').optional().describe("The contact's address; an address that is no contact is kept and starts nothing, unless a trigger on the event has create_contact"),
          contact_id: z.uuid({ message: 'must be the id of one of your contacts' }).optional(),
          payload: z.record(z.string(), z.unknown()).optional().describe('What event.* variables and conditions read: a JSON object, at most 32 KiB and 5 levels deep'),
        })
        .superRefine((input, ctx) => {
          if ((input.email === undefined) === (input.contact_id === undefined)) {
            ctx.addIssue({ code: 'custom', path: [input.email === undefined ? 'email' : 'contact_id'], message: 'give exactly one of email and contact_id' });
          }
        }),
    )
    .output(receipt)
    .mutation(({ ctx, input }) =>
      sendEvent(ctx.deps, ctx.principal, { event: input.event, contact: input.contact_id !== undefined ? { id: input.contact_id } : { email: input.email! }, payload: input.payload }),
    ),
});
