import { z } from 'zod';
import { CONTACT_PROPERTY_TYPES } from '@/db/schema';
import { createContactProperty, deleteContactProperty, getContactProperty, listContactProperties, updateContactProperty } from '../services/contact-properties/crud';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { idParam, isoDate, messageResponse } from './shared';

const value = z.union([z.string(), z.number(), z.boolean()]);

const contactProperty = z
  .object({
    id: z.uuid(),
    key: z.string(),
    type: z.enum(CONTACT_PROPERTY_TYPES),
    fallbackValue: value.nullable().describe('What a template or merge tag uses for a contact without a value; null: none'),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'ContactProperty' });

const fallbackValue = value
  .nullable()
  .optional()
  .describe("Of the property's type: a string, a number, true or false, or a date (YYYY-MM-DD, or ISO 8601 with a time zone)");

const tags = ['Contact properties'];
const path = { id: idParam };

export const contactPropertiesRouter = router({
  create: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/contact-properties', operationId: 'createContactProperty', tags, summary: 'Define a custom property contacts may carry' }, successStatus: 201, liveWrite: true, errors: [409] })
    .input(
      z.strictObject({
        key: z.string().max(50, 'must be at most 50 characters').describe('Letters, digits and underscores; not a field every contact has (email, first_name, ...)'),
        type: z.enum(CONTACT_PROPERTY_TYPES, { message: `must be one of ${CONTACT_PROPERTY_TYPES.join(', ')}` }),
        fallback_value: fallbackValue,
      }),
    )
    .output(contactProperty)
    .mutation(({ ctx, input }) => createContactProperty(ctx.deps, ctx.principal, { key: input.key, type: input.type, fallbackValue: input.fallback_value })),

  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/contact-properties', operationId: 'listContactProperties', tags, summary: 'List the contact properties, in the order they were defined' } })
    .input(z.object({}))
    .output(z.object({ data: z.array(contactProperty) }))
    .query(async ({ ctx }) => ({ data: await listContactProperties(ctx.deps, ctx.principal) })),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/contact-properties/{id}', operationId: 'getContactProperty', tags, summary: 'Get a contact property' } })
    .input(z.strictObject(path))
    .output(contactProperty)
    .query(({ ctx, input }) => getContactProperty(ctx.deps, ctx.principal, input.id)),

  update: orgProcedure
    .meta({ openapi: { method: 'PATCH', path: '/contact-properties/{id}', operationId: 'updateContactProperty', tags, summary: "Change a property's fallback value (its key and type are fixed)" }, liveWrite: true })
    .input(z.strictObject({ ...path, fallback_value: fallbackValue }))
    .output(contactProperty)
    .mutation(({ ctx, input }) => updateContactProperty(ctx.deps, ctx.principal, input.id, { fallbackValue: input.fallback_value })),

  delete: orgProcedure
    .meta({ openapi: { method: 'DELETE', path: '/contact-properties/{id}', operationId: 'deleteContactProperty', tags, summary: 'Delete a contact property' }, liveWrite: true })
    .input(z.strictObject(path))
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await deleteContactProperty(ctx.deps, ctx.principal, input.id);
      return { message: 'Contact property deleted' };
    }),
});
