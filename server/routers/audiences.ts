import { z } from 'zod';
import { createAudience, deleteAudience, getAudience, listAudiences } from '../services/audiences/crud';
import { deleteContact, deleteContacts, updateContact } from '../services/contacts/change';
import { createContact } from '../services/contacts/create';
import { createContactMaybeAskingConfirmation } from '../services/contacts/create-pending';
import { getContact, listContacts } from '../services/contacts/read';
import { contactIdOf } from '../services/contacts/target';
import { CONTACT_NAME_MAX } from '../services/contacts/names';
import { contactParam } from './contact-param';
import { doubleOptInAskOf, doubleOptInFields } from './double-opt-in-fields';
import { propertyValuesInput } from './property-values';
import { CONTACT_BATCH_LIMIT, upsertContacts, type ContactInput } from '../services/contacts/upsert';
import { sunsetPreview as previewSunset } from '../services/sunset/preview';
import { SUNSET_MONTHS_DEFAULT, SUNSET_MONTHS_MAX, SUNSET_MONTHS_MIN } from '../services/sunset/rule';
import { reengagementOf, sunsetReengagementInput, sunsetReengagementOutput } from './sunset-reengagement';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { idParam, isoDate, jsonBoolean, messageResponse, pageQuery } from './shared';

const sunsetRange = `must be a whole number of months from ${SUNSET_MONTHS_MIN} to ${SUNSET_MONTHS_MAX}`;
// A JSON number, nothing else: inside a pipe trpc-to-openapi's coercion cannot reach it (`true` would read as 1 month), as jsonBoolean.
const sunsetMonths = z
  .number({ message: sunsetRange })
  .pipe(z.number().int(sunsetRange).min(SUNSET_MONTHS_MIN, sunsetRange).max(SUNSET_MONTHS_MAX, sunsetRange))
  // The pipe's input side is what the document shows: the bounds are said here.
  .meta({ type: 'integer', minimum: SUNSET_MONTHS_MIN, maximum: SUNSET_MONTHS_MAX });

/** The sunset setting of a create or update (`null` turns it off); shared with the segment routes. */
export const sunsetAfterMonthsInput = sunsetMonths
  .nullable()
  .optional()
  .describe('Beyond the spec: members with no human open or click for this many months are set sunset in the audience and get no broadcast; null: off (the default)');
export const sunsetAfterMonthsOutput = z.number().int().nullable().describe('Sunset by human engagement after this many months; null: off');

export const audience = z
  .object({
    id: z.uuid(),
    name: z.string(),
    contactCount: z.number().int().describe('Contacts in the audience now'),
    sunsetAfterMonths: sunsetAfterMonthsOutput,
    sunsetReengagement: sunsetReengagementOutput,
    createdAt: isoDate,
  })
  .meta({ id: 'Audience' });

const sunsetPreview = z
  .object({
    months: z.number().int(),
    subscribed: z.number().int().describe('Members who would get a broadcast but for a sunset'),
    wouldSunset: z.number().int().describe('Of those, how many a run with this setting would leave sunset now'),
    sunsetNow: z.number().int().describe('Of those, how many are sunset now'),
    reengagedNow: z.number().int().describe('Of those, how many were sent the re-engagement email and are in its grace period'),
  })
  .meta({ id: 'SunsetPreview' });

export const contact = z
  .object({
    id: z.uuid(),
    email: z.string().describe('Lowercase; an IDN domain in ASCII (punycode)'),
    name: z.string().nullable(),
    subscribed: z.boolean().describe('Subscribed in this audience; false while pending'),
    pending: z.boolean().describe('Asked to confirm (double opt-in) and not confirmed yet: it gets no broadcast meanwhile, and joins the audience it was asked for once it confirms'),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Contact' });

export const name = z.string().trim().max(CONTACT_NAME_MAX, `must be at most ${CONTACT_NAME_MAX} characters`);
const contactFields = {
  email: z.string().max(320, 'must be at most 320 characters').describe('The address; stored lowercase'),
  name: name.optional(),
  subscribed: jsonBoolean().optional().describe('Default true; an existing opt-out is never removed by a create or an import (PATCH does)'),
  first_name: name.optional().describe("Resend's: the contact's first name (the name follows it while it is only ever \"first last\")"),
  last_name: name.optional().describe("Resend's: the contact's last name"),
  unsubscribed: jsonBoolean().optional().describe("Resend's: true unsubscribes the contact from everything (never undone here; PATCH /contacts/{idOrEmail} does)"),
  properties: propertyValuesInput
    .optional()
    .describe("Resend's: values of the contact properties, checked by type"),
};

/** A contact of a create or batch row, from the wire's snake_case. */
const contactInputOf = (row: { email: string; name?: string; subscribed?: boolean; first_name?: string; last_name?: string; unsubscribed?: boolean; properties?: Record<string, string | number | boolean> }): ContactInput => ({
  email: row.email,
  name: row.name,
  subscribed: row.subscribed,
  firstName: row.first_name,
  lastName: row.last_name,
  unsubscribed: row.unsubscribed,
  properties: row.properties,
});

const rowError = z.object({ index: z.number().int().describe('Position in `contacts`'), email: z.string(), error: z.string() });
const batchAnswer = z
  .object({
    created: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int().describe('Rows (after de-duplication) that changed nothing'),
    errors: z.array(rowError).describe('Rows refused; the others were stored'),
  })
  .meta({ id: 'ContactBatchResult' });

const audienceId = { id: idParam };

/** A page of an audience's contacts: shared with `GET /segments/{id}/contacts`. */
export const contactListQuery = {
  ...pageQuery({ max: 1000, default: 50 }),
  search: z.string().max(320).optional().describe('Part of the address, any case'),
  subscribed: z.stringbool({ truthy: ['true'], falsy: ['false'], error: 'must be true or false' }).meta({ enum: ['true', 'false'], maxLength: 5 }).optional(),
};
export const contactPage = z.object({ data: z.array(contact), nextCursor: z.uuid().nullable() });
const contactPath = { id: idParam, contactId: contactParam };
const tags = ['Audiences'];
const contactTags = ['Contacts'];

export const audiencesRouter = router({
  create: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/audiences', operationId: 'createAudience', tags, summary: 'Create an audience' }, successStatus: 201, liveWrite: true })
    .input(z.strictObject({ name: name.min(1, 'must not be empty'), sunset_after_months: sunsetAfterMonthsInput, sunset_reengagement: sunsetReengagementInput }))
    .output(audience)
    .mutation(({ ctx, input }) =>
      createAudience(ctx.deps, ctx.principal, { name: input.name, sunsetAfterMonths: input.sunset_after_months, sunsetReengagement: reengagementOf(input.sunset_reengagement) }),
    ),

  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/audiences', operationId: 'listAudiences', tags, summary: 'List audiences, newest first, with their contact counts' } })
    .input(z.object({}))
    .output(z.object({ data: z.array(audience) }))
    .query(async ({ ctx }) => ({ data: await listAudiences(ctx.deps, ctx.principal) })),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/audiences/{id}', operationId: 'getAudience', tags, summary: 'Get an audience' } })
    .input(z.strictObject(audienceId))
    .output(audience)
    .query(({ ctx, input }) => getAudience(ctx.deps, ctx.principal, input.id)),

  sunsetPreview: orgProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/audiences/{id}/sunset-preview',
        operationId: 'previewAudienceSunset',
        tags,
        summary: 'How many members a sunset after `months` months would set sunset if it ran now, and how many are sunset now (beyond the spec)',
      },
    })
    .input(
      z.strictObject({
        ...audienceId,
        months: z.coerce.number({ message: sunsetRange }).int(sunsetRange).min(SUNSET_MONTHS_MIN, sunsetRange).max(SUNSET_MONTHS_MAX, sunsetRange).optional().describe(`The setting to preview, in months; default: the audience's own, else ${SUNSET_MONTHS_DEFAULT}`),
      }),
    )
    .output(sunsetPreview)
    .query(({ ctx, input }) => previewSunset(ctx.deps, ctx.principal, input.id, input.months)),

  delete: orgProcedure
    .meta({
      openapi: { method: 'DELETE', path: '/audiences/{id}', operationId: 'deleteAudience', tags, summary: 'Delete an audience and its contacts (409 while a broadcast to it is scheduled or sending)' },
      liveWrite: true,
      errors: [409],
    })
    .input(z.strictObject(audienceId))
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await deleteAudience(ctx.deps, ctx.principal, input.id);
      return { message: 'Audience deleted' };
    }),

  createContact: orgProcedure
    .meta({
      openapi: { method: 'POST', path: '/audiences/{id}/contacts', operationId: 'createContact', tags: contactTags, summary: 'Add a contact, or update the one with this address (same id)' },
      successStatus: 201,
      liveWrite: true,
      errors: [409],
    })
    .input(z.strictObject({ ...audienceId, ...contactFields, ...doubleOptInFields('the audience is') }))
    .output(contact)
    .mutation(({ ctx, input }) =>
      // Beyond the spec: without `double_opt_in` and `confirmation`, the spec's create, untouched.
      input.double_opt_in === undefined && input.confirmation === undefined
        ? createContact(ctx.deps, ctx.principal, input.id, contactInputOf(input))
        : createContactMaybeAskingConfirmation(ctx.deps, ctx.principal, input.id, contactInputOf(input), doubleOptInAskOf(input)),
    ),

  listContacts: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/audiences/{id}/contacts', operationId: 'listContacts', tags: contactTags, summary: "An audience's contacts, newest first" } })
    .input(
      z.strictObject({ ...audienceId, ...contactListQuery }),
    )
    .output(contactPage)
    .query(({ ctx, input }) => listContacts(ctx.deps, ctx.principal, input.id, { limit: input.limit, cursor: input.cursor, search: input.search, subscribed: input.subscribed })),

  getContact: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/audiences/{id}/contacts/{contactId}', operationId: 'getContact', tags: contactTags, summary: 'Get a contact' } })
    .input(z.strictObject(contactPath))
    .output(contact)
    .query(async ({ ctx, input }) => getContact(ctx.deps, ctx.principal, input.id, await contactIdOf(ctx.deps, ctx.principal, input.id, input.contactId))),

  updateContact: orgProcedure
    .meta({ openapi: { method: 'PATCH', path: '/audiences/{id}/contacts/{contactId}', operationId: 'updateContact', tags: contactTags, summary: "Change a contact's name or subscription" }, liveWrite: true })
    .input(z.strictObject({ ...contactPath, name: name.nullable().optional(), subscribed: jsonBoolean().optional() }))
    .output(contact)
    .mutation(async ({ ctx, input }) =>
      updateContact(ctx.deps, ctx.principal, input.id, await contactIdOf(ctx.deps, ctx.principal, input.id, input.contactId), { name: input.name, subscribed: input.subscribed }),
    ),

  deleteContact: orgProcedure
    .meta({ openapi: { method: 'DELETE', path: '/audiences/{id}/contacts/{contactId}', operationId: 'deleteContact', tags: contactTags, summary: 'Delete a contact' }, liveWrite: true, errors: [409] })
    .input(z.strictObject(contactPath))
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await deleteContact(ctx.deps, ctx.principal, input.id, await contactIdOf(ctx.deps, ctx.principal, input.id, input.contactId));
      return { message: 'Contact deleted' };
    }),

  batchContacts: orgProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/audiences/{id}/contacts/batch',
        operationId: 'upsertContacts',
        tags: contactTags,
        summary: `Add or update up to ${CONTACT_BATCH_LIMIT.toLocaleString('en')} contacts in one request; invalid rows are listed, the others stored`,
      },
      liveWrite: true,
      bulkBody: true,
      errors: [409],
    })
    .input(
      z.strictObject({
        ...audienceId,
        contacts: z
          .array(z.strictObject(contactFields))
          .min(1, 'give at least one contact')
          .max(CONTACT_BATCH_LIMIT, `at most ${CONTACT_BATCH_LIMIT} contacts per request`),
      }),
    )
    .output(batchAnswer)
    .mutation(async ({ ctx, input }) => {
      const { created, updated, unchanged, errors } = await upsertContacts(ctx.deps, ctx.principal, input.id, input.contacts.map(contactInputOf));
      return { created, updated, unchanged, errors };
    }),

  batchDeleteContacts: orgProcedure
    .meta({
      openapi: { method: 'POST', path: '/audiences/{id}/contacts/batch-delete', operationId: 'deleteContacts', tags: contactTags, summary: `Delete up to ${CONTACT_BATCH_LIMIT.toLocaleString('en')} contacts by id` },
      liveWrite: true,
      bulkBody: true,
      errors: [409],
    })
    .input(
      z.strictObject({
        ...audienceId,
        ids: z
          .array(z.uuid({ message: 'must be a contact id' }))
          .min(1, 'give at least one id')
          .max(CONTACT_BATCH_LIMIT, `at most ${CONTACT_BATCH_LIMIT} ids per request`),
      }),
    )
    .output(z.object({ deleted: z.number().int(), notFound: z.number().int() }).meta({ id: 'ContactBatchDeleteResult' }))
    .mutation(({ ctx, input }) => deleteContacts(ctx.deps, ctx.principal, input.id, input.ids)),
});
