import { z } from 'zod';
import { deleteAudience } from '../services/audiences/crud';
import { createSegment, getSegment, listSegments, updateSegment } from '../services/segments/crud';
import { ENGAGEMENT_ACTIVITIES, PROPERTY_OPERATORS, SEGMENT_CONDITION_LIMIT, type SegmentRules } from '../services/segments/rules';
import { listContacts } from '../services/contacts/read';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { reengagementOf, sunsetReengagementInput, sunsetReengagementOutput } from './sunset-reengagement';
import { contactListQuery, contactPage, name, sunsetAfterMonthsInput, sunsetAfterMonthsOutput } from './audiences';
import { idParam, isoDate, messageResponse } from './shared';

// Resend's name for an audience (docs/contacts.md): the same resource, the same rows and rules;
// a segment made here is an audience in every other route, and the reverse.

const propertyCondition = z.strictObject({
  type: z.literal('property'),
  key: z.string().max(50),
  operator: z.enum(PROPERTY_OPERATORS, { message: `must be one of ${PROPERTY_OPERATORS.join(', ')}` }),
  value: z.union([z.string().max(2000), z.number(), z.boolean()]).optional().describe('Of the property\'s type; not for exists / not_exists'),
});
const engagementCondition = z.strictObject({
  type: z.literal('engagement'),
  activity: z.enum(ENGAGEMENT_ACTIVITIES, { message: `must be one of ${ENGAGEMENT_ACTIVITIES.join(', ')}` }).describe("A person's opens and clicks, not a scanner's"),
  within_days: z.number().int('must be a whole number').min(1, 'must be 1 to 3650').max(3650, 'must be 1 to 3650'),
  negate: z.boolean().optional().describe('true: the activity did not happen within those days'),
});
const rulesInput = z
  .strictObject({
    match: z.enum(['all', 'any']).default('all'),
    conditions: z.array(z.discriminatedUnion('type', [propertyCondition, engagementCondition])).min(1, 'give at least one condition').max(SEGMENT_CONDITION_LIMIT, `at most ${SEGMENT_CONDITION_LIMIT} conditions`),
  })
  .describe('Beyond Resend: the segment is whoever matches, evaluated when it is made or changed and when a broadcast to it is handed off');
const rulesOf = (input: z.infer<typeof rulesInput>): SegmentRules => ({
  match: input.match,
  conditions: input.conditions.map((condition) =>
    condition.type === 'engagement' ? { type: 'engagement', activity: condition.activity, withinDays: condition.within_days, negate: condition.negate ?? false } : condition,
  ),
});
const rulesOutput = z.object({
  match: z.enum(['all', 'any']),
  conditions: z.array(
    z.union([
      z.object({ type: z.literal('property'), key: z.string(), operator: z.enum(PROPERTY_OPERATORS), value: z.union([z.string(), z.number(), z.boolean()]).optional() }),
      z.object({ type: z.literal('engagement'), activity: z.enum(ENGAGEMENT_ACTIVITIES), withinDays: z.number().int(), negate: z.boolean().optional() }),
    ]),
  ),
});
const segment = z
  .object({
    id: z.uuid(),
    name: z.string(),
    contactCount: z.number().int().describe('Members now: for a rule segment, whom its rules matched when last evaluated'),
    rules: rulesOutput.nullable(),
    matchingNow: z.number().int().nullable().describe('For a rule segment, the contacts its rules match now (a live count)'),
    rulesEvaluatedAt: isoDate.nullable(),
    sunsetAfterMonths: sunsetAfterMonthsOutput,
    sunsetReengagement: sunsetReengagementOutput,
    createdAt: isoDate,
  })
  .meta({ id: 'Segment' });

const tags = ['Segments'];
const path = { id: idParam };

export const segmentsRouter = router({
  create: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/segments', operationId: 'createSegment', tags, summary: 'Create a segment (an audience, under Resend’s name)' }, successStatus: 201, liveWrite: true })
    .input(z.strictObject({ name: name.min(1, 'must not be empty'), rules: rulesInput.optional(), sunset_after_months: sunsetAfterMonthsInput, sunset_reengagement: sunsetReengagementInput }))
    .output(segment)
    .mutation(({ ctx, input }) =>
      createSegment(ctx.deps, ctx.principal, {
        name: input.name,
        rules: input.rules && rulesOf(input.rules),
        sunsetAfterMonths: input.sunset_after_months,
        sunsetReengagement: reengagementOf(input.sunset_reengagement),
      }),
    ),

  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/segments', operationId: 'listSegments', tags, summary: 'List segments (the audiences), newest first, with their contact counts' } })
    .input(z.object({}))
    .output(z.object({ data: z.array(segment) }))
    .query(async ({ ctx }) => ({ data: await listSegments(ctx.deps, ctx.principal) })),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/segments/{id}', operationId: 'getSegment', tags, summary: 'Get a segment' } })
    .input(z.strictObject(path))
    .output(segment)
    .query(({ ctx, input }) => getSegment(ctx.deps, ctx.principal, input.id)),

  update: orgProcedure
    .meta({
      openapi: { method: 'PATCH', path: '/segments/{id}', operationId: 'updateSegment', tags, summary: "Rename a segment, change a rule segment's rules (evaluated at once), or its sunset setting" },
      liveWrite: true,
      errors: [409],
    })
    .input(
      z.strictObject({
        ...path,
        name: name.min(1, 'must not be empty').optional(),
        rules: rulesInput.optional(),
        sunset_after_months: sunsetAfterMonthsInput,
        sunset_reengagement: sunsetReengagementInput,
      }),
    )
    .output(segment)
    .mutation(({ ctx, input }) =>
      updateSegment(ctx.deps, ctx.principal, input.id, {
        name: input.name,
        rules: input.rules && rulesOf(input.rules),
        sunsetAfterMonths: input.sunset_after_months,
        sunsetReengagement: reengagementOf(input.sunset_reengagement),
      }),
    ),

  delete: orgProcedure
    .meta({
      openapi: { method: 'DELETE', path: '/segments/{id}', operationId: 'deleteSegment', tags, summary: 'Delete a segment and its contacts, as DELETE /audiences/{id} (409 while a broadcast to it is scheduled or sending)' },
      liveWrite: true,
      errors: [409],
    })
    .input(z.strictObject(path))
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await deleteAudience(ctx.deps, ctx.principal, input.id);
      return { message: 'Segment deleted' };
    }),

  listContacts: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/segments/{id}/contacts', operationId: 'listSegmentContacts', tags, summary: "A segment's contacts, newest first" } })
    .input(z.strictObject({ ...path, ...contactListQuery }))
    .output(contactPage)
    .query(({ ctx, input }) => listContacts(ctx.deps, ctx.principal, input.id, { limit: input.limit, cursor: input.cursor, search: input.search, subscribed: input.subscribed })),
});
