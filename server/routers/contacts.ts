import { z } from 'zod';
import { deleteContactProfile, createContactProfile, updateContactProfile } from '../services/contacts/profile-write';
import { getContactProfile, listContactProfiles, propertyFilterOf } from '../services/contacts/profile';
import { doubleOptInOf, resendConfirmation } from '../services/double-opt-in';
import { addContactToSegment, listContactSegments, removeContactFromSegment } from '../services/contacts/segments';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { name } from './audiences';
import { contactParam } from './contact-param';
import { confirmationSender, doubleOptInAskOf, doubleOptInFields } from './double-opt-in-fields';
import { clearablePropertyValuesInput, propertyValueOutput } from './property-values';
import { idParam, isoDate, jsonBoolean, messageResponse, pageQuery } from './shared';


export const contactProfile = z
  .object({
    id: z.uuid(),
    email: z.string().describe('Lowercase; an IDN domain in ASCII (punycode)'),
    name: z.string().nullable().describe('As given; "first last" when only those were given'),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    unsubscribed: z.boolean().describe('Unsubscribed from everything sent to lists, whatever each segment says; true while pending'),
    pending: z.boolean().describe('Asked to confirm (double opt-in) and not confirmed yet: it gets no broadcast meanwhile; confirming, or PATCH unsubscribed: false, ends it'),
    properties: z.record(z.string(), propertyValueOutput).describe('Values of the contact properties (GET /contact-properties)'),
    engagement: z
      .object({ lastDeliveredAt: isoDate.nullable(), lastOpenedAt: isoDate.nullable(), lastClickedAt: isoDate.nullable() })
      .describe('Kept past the log retention; opens and clicks of people, not scanners'),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'ContactProfile' });

const contactSegment = z.object({ id: z.uuid(), name: z.string(), subscribed: z.boolean().describe("The contact's subscription in this segment"), joinedAt: isoDate });

const personName = name.nullable().optional();
const changes = {
  name: personName,
  first_name: personName,
  last_name: personName,
  unsubscribed: jsonBoolean().optional(),
  properties: clearablePropertyValuesInput
    .optional()
    .describe('Values by property key, checked by its type; null clears one'),
};

const tags = ['Contacts'];
const path = { idOrEmail: contactParam };

export const contactsRouter = router({
  create: orgProcedure
    .meta({
      openapi: { method: 'POST', path: '/contacts', operationId: 'createContactProfile', tags, summary: 'Add a contact to the organization (or update the one with this address), optionally into segments' },
      successStatus: 201,
      liveWrite: true,
      errors: [409],
    })
    .input(
      z.strictObject({
        email: z.string().max(320, 'must be at most 320 characters'),
        ...changes,
        unsubscribed: jsonBoolean().optional().describe('true unsubscribes it from everything; a create never removes an opt-out (PATCH does)'),
        segments: z
          .array(z.strictObject({ id: idParam }))
          .max(100)
          .optional()
          .describe('Segments (audiences) it joins, subscribed'),
        topics: z
          .array(z.strictObject({ id: idParam, subscription: z.enum(['opt_in', 'opt_out'], { message: 'must be opt_in or opt_out' }) }))
          .max(50)
          .optional()
          .describe("Its choices about topics (the rest follow each topic's default)"),
        ...doubleOptInFields('segments and topics are'),
      }),
    )
    .output(contactProfile)
    .mutation(async ({ ctx, input }) => {
      const { contact } = await createContactProfile(ctx.deps, ctx.principal, {
        email: input.email,
        name: input.name,
        firstName: input.first_name,
        lastName: input.last_name,
        unsubscribed: input.unsubscribed,
        properties: input.properties,
        segmentIds: input.segments?.map((segment) => segment.id),
        topics: input.topics,
        doubleOptIn: doubleOptInOf(doubleOptInAskOf(input)),
      });
      return contact;
    }),

  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/contacts', operationId: 'listContactProfiles', tags, summary: "The organization's contacts, newest first, with filters" } })
    .input(
      z.object({
        ...pageQuery({ max: 1000, default: 50 }),
        search: z.string().max(320).optional().describe('Part of the address, any case'),
        segment_id: z.uuid({ message: 'must be the id of one of your segments' }).max(36).optional().describe('Only the contacts in this segment (audience)'),
        audience_id: z.uuid({ message: 'must be the id of one of your audiences' }).max(36).optional().describe("segment_id's other name"),
        property: z.array(z.string().max(2100)).max(10).optional().describe('key:value, the property as text (42, true, 2026-01-31); repeat to AND'),
      }),
    )
    .output(z.object({ data: z.array(contactProfile), nextCursor: z.uuid().nullable() }))
    .query(({ ctx, input }) =>
      listContactProfiles(ctx.deps, ctx.principal, {
        limit: input.limit,
        cursor: input.cursor,
        search: input.search,
        segmentId: input.segment_id ?? input.audience_id,
        properties: input.property?.map(propertyFilterOf),
      }),
    ),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/contacts/{idOrEmail}', operationId: 'getContactProfile', tags, summary: 'Get a contact by id or address' } })
    .input(z.strictObject(path))
    .output(contactProfile)
    .query(({ ctx, input }) => getContactProfile(ctx.deps, ctx.principal, input.idOrEmail)),

  update: orgProcedure
    .meta({ openapi: { method: 'PATCH', path: '/contacts/{idOrEmail}', operationId: 'updateContactProfile', tags, summary: "Change a contact's names, global subscription or property values" }, liveWrite: true })
    .input(z.strictObject({ ...path, ...changes }))
    .output(contactProfile)
    .mutation(({ ctx, input }) =>
      updateContactProfile(ctx.deps, ctx.principal, input.idOrEmail, {
        name: input.name,
        firstName: input.first_name,
        lastName: input.last_name,
        unsubscribed: input.unsubscribed,
        properties: input.properties,
      }),
    ),

  delete: orgProcedure
    .meta({ openapi: { method: 'DELETE', path: '/contacts/{idOrEmail}', operationId: 'deleteContactProfile', tags, summary: 'Delete a contact from everything: every segment, its topic choices and values' }, liveWrite: true })
    .input(z.strictObject(path))
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await deleteContactProfile(ctx.deps, ctx.principal, input.idOrEmail);
      return { message: 'Contact deleted' };
    }),

  resendConfirmation: orgProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/contacts/{idOrEmail}/confirmation',
        operationId: 'resendContactConfirmation',
        tags,
        summary: 'Mail a pending contact a new double opt-in link (at most once per 10 minutes and 5 times a day: 429 beyond)',
      },
      liveWrite: true,
      errors: [409],
    })
    .input(z.strictObject({ ...path, from: confirmationSender.shape.from.optional().describe('The last confirmation\'s sender when absent'), template_id: confirmationSender.shape.template_id }))
    .output(z.object({ contactId: z.uuid(), emailId: z.uuid().describe('The confirmation email'), expiresAt: isoDate.describe('When its link stops working') }))
    .mutation(({ ctx, input }) => resendConfirmation(ctx.deps, ctx.principal, input.idOrEmail, { from: input.from, templateId: input.template_id })),

  listSegments: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/contacts/{idOrEmail}/segments', operationId: 'listContactSegments', tags, summary: 'The segments (audiences) a contact is in' } })
    .input(z.strictObject(path))
    .output(z.object({ data: z.array(contactSegment) }))
    .query(async ({ ctx, input }) => ({ data: await listContactSegments(ctx.deps, ctx.principal, input.idOrEmail) })),

  addSegment: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/contacts/{idOrEmail}/segments/{segmentId}', operationId: 'addContactToSegment', tags, summary: 'Add a contact to a segment, subscribed (409 for a rule segment)' }, liveWrite: true, errors: [409] })
    .input(z.strictObject({ ...path, segmentId: idParam }))
    .output(z.object({ id: z.uuid().describe('The segment') }))
    .mutation(async ({ ctx, input }) => {
      await addContactToSegment(ctx.deps, ctx.principal, input.idOrEmail, input.segmentId);
      return { id: input.segmentId };
    }),

  removeSegment: orgProcedure
    .meta({
      openapi: { method: 'DELETE', path: '/contacts/{idOrEmail}/segments/{segmentId}', operationId: 'removeContactFromSegment', tags, summary: 'Take a contact out of a segment; it stays in the organization' },
      liveWrite: true,
      errors: [409],
    })
    .input(z.strictObject({ ...path, segmentId: idParam }))
    .output(z.object({ id: z.uuid().describe('The segment') }))
    .mutation(async ({ ctx, input }) => {
      await removeContactFromSegment(ctx.deps, ctx.principal, input.idOrEmail, input.segmentId);
      return { id: input.segmentId };
    }),
});
