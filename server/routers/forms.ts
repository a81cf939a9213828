import { z } from 'zod';
import { FORM_SUBMISSION_STATUSES } from '../vocabulary/forms';
import {
  ALLOWED_ORIGINS_MAX,
  AUDIENCE_NAMES,
  CONSENT_TEXT_MAX,
  createForm,
  deleteForm,
  FORM_NAME_MAX,
  FORM_PROPERTIES_MAX,
  FORM_TOPICS_MAX,
  FORM_URL_MAX,
  getForm,
  listFormSubmissions,
  listForms,
  updateForm,
  type FormChanges,
} from '../services/forms';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { idParam, nonBlank, isoDate, jsonBoolean, messageResponse, pageQuery, underOneName } from './shared';

const form = z
  .object({
    id: z.uuid(),
    name: z.string(),
    formKey: z.string().describe('The public key of the form\'s endpoint, POST /f/{formKey}; random, unlike the id'),
    endpoint: z.string().describe('Where the form posts: {APP_URL}/f/{formKey}'),
    audienceId: z.uuid().nullable().describe('The audience (segment) a submission joins; null once it was deleted (the form then refuses submissions)'),
    topicIds: z.array(z.uuid()),
    fields: z.object({ email: z.literal(true), firstName: z.boolean(), lastName: z.boolean(), properties: z.array(z.string()) }),
    consentText: z.string(),
    consentVersion: z.number().int().describe('The version of the consent text shown now; every earlier version is kept'),
    doubleOptIn: z.boolean(),
    domainId: z.uuid().nullable(),
    confirmationTemplateId: z.uuid().nullable().describe('The template the double opt-in confirmation mail is written with; null: the built-in text'),
    successUrl: z.string().nullable(),
    errorUrl: z.string().nullable(),
    allowedOrigins: z.array(z.string()),
    snippet: z.string().describe('The HTML to paste into a page'),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Form' });

const submission = z
  .object({
    id: z.uuid(),
    email: z.string(),
    contactId: z.uuid().nullable(),
    status: z.enum(FORM_SUBMISSION_STATUSES),
    formVersion: z.number().int(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    properties: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    createdAt: isoDate,
  })
  .meta({ id: 'FormSubmission' });

const name = nonBlank(FORM_NAME_MAX);
const audienceId = z.uuid({ message: 'must be the id of one of your audiences' });
const segmentId = z.uuid({ message: 'must be the id of one of your segments (audiences)' }).describe("Resend's name for `audience_id`: give one of the two");
const topicIds = z.array(z.uuid({ message: 'must be the id of one of your topics' })).max(FORM_TOPICS_MAX, `must list at most ${FORM_TOPICS_MAX} topics`);
const fields = z.strictObject({
  first_name: jsonBoolean().optional(),
  last_name: jsonBoolean().optional(),
  properties: z.array(z.string().max(50)).max(FORM_PROPERTIES_MAX, `must list at most ${FORM_PROPERTIES_MAX} properties`).optional().describe('Contact property keys the form asks for, in order'),
});
const consentText = nonBlank(CONSENT_TEXT_MAX).describe('What the person agrees to, shown above the button; a change makes a new version');
const url = z.string().max(FORM_URL_MAX, `must be at most ${FORM_URL_MAX} characters`);
const origins = z
  .array(z.string().max(200))
  .min(1, 'must list at least one origin (the pages that will post to the form)')
  .max(ALLOWED_ORIGINS_MAX, `must list at most ${ALLOWED_ORIGINS_MAX} origins`)
  .describe('Origins (https://www.example.com) whose pages may post to the form; others are refused');
const domainId = z.uuid({ message: 'must be the id of one of your domains' });
const confirmationTemplateId = z
  .uuid({ message: 'must be the id of one of your templates' })
  .nullable()
  .optional()
  .describe(
    'A published template of yours showing {{ confirmation_url }} (it may also use {{ email }}, {{ name }}, {{ organization }}, {{ expires_in_days }}) for the double opt-in confirmation mail; null or absent: the built-in text',
  );

const tags = ['Forms'];
const byId = { id: idParam };

const fieldsOf = (input: z.infer<typeof fields> | undefined) => input && { firstName: input.first_name, lastName: input.last_name, properties: input.properties };

export const formsRouter = router({
  create: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/forms', operationId: 'createForm', tags, summary: 'Create a hosted sign-up form' }, successStatus: 201, liveWrite: true, errors: [409] })
    .input(
      z
        .strictObject({
          name,
          audience_id: audienceId.optional().describe('Required (or segment_id)'),
          segment_id: segmentId.optional(),
          topic_ids: topicIds.optional(),
          fields: fields.optional(),
          consent_text: consentText,
          double_opt_in: jsonBoolean().optional().describe('Needs domain_id, a verified domain of yours'),
          domain_id: domainId.nullable().optional(),
          confirmation_template_id: confirmationTemplateId,
          success_url: url.nullable().optional(),
          error_url: url.nullable().optional(),
          allowed_origins: origins,
        })
        .superRefine(underOneName(AUDIENCE_NAMES)),
    )
    .output(form)
    .mutation(({ ctx, input }) =>
      createForm(ctx.deps, ctx.principal, {
        name: input.name,
        audienceId: (input.audience_id ?? input.segment_id)!,
        topicIds: input.topic_ids,
        fields: fieldsOf(input.fields),
        consentText: input.consent_text,
        doubleOptIn: input.double_opt_in,
        domainId: input.domain_id,
        confirmationTemplateId: input.confirmation_template_id,
        successUrl: input.success_url,
        errorUrl: input.error_url,
        allowedOrigins: input.allowed_origins,
      }),
    ),

  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/forms', operationId: 'listForms', tags, summary: 'List sign-up forms, newest first' } })
    .input(z.strictObject({ ...pageQuery({ max: 100, default: 20 }) }))
    .output(z.object({ data: z.array(form), nextCursor: z.uuid().nullable() }))
    .query(({ ctx, input }) => listForms(ctx.deps, ctx.principal, input)),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/forms/{id}', operationId: 'getForm', tags, summary: 'Get a sign-up form with its snippet' } })
    .input(z.strictObject(byId))
    .output(form)
    .query(({ ctx, input }) => getForm(ctx.deps, ctx.principal, input.id)),

  update: orgProcedure
    .meta({ openapi: { method: 'PATCH', path: '/forms/{id}', operationId: 'updateForm', tags, summary: 'Change a sign-up form (a new consent text becomes a new version)' }, liveWrite: true })
    .input(
      z.strictObject({
        ...byId,
        name: name.optional(),
        audience_id: audienceId.optional(),
        segment_id: segmentId.optional(),
        topic_ids: topicIds.optional(),
        fields: fields.optional(),
        consent_text: consentText.optional(),
        double_opt_in: jsonBoolean().optional(),
        domain_id: domainId.nullable().optional(),
        confirmation_template_id: confirmationTemplateId,
        success_url: url.nullable().optional(),
        error_url: url.nullable().optional(),
        allowed_origins: origins.optional(),
      }),
    )
    .output(form)
    .mutation(({ ctx, input }) => {
      const changes: FormChanges = {
        name: input.name,
        audienceId: input.audience_id,
        segmentId: input.segment_id,
        topicIds: input.topic_ids,
        fields: fieldsOf(input.fields),
        consentText: input.consent_text,
        doubleOptIn: input.double_opt_in,
        domainId: input.domain_id,
        confirmationTemplateId: input.confirmation_template_id,
        successUrl: input.success_url,
        errorUrl: input.error_url,
        allowedOrigins: input.allowed_origins,
      };
      return updateForm(ctx.deps, ctx.principal, input.id, changes);
    }),

  delete: orgProcedure
    .meta({ openapi: { method: 'DELETE', path: '/forms/{id}', operationId: 'deleteForm', tags, summary: 'Delete a sign-up form and its submissions (its consent texts are kept for the ledger)' }, liveWrite: true })
    .input(z.strictObject(byId))
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await deleteForm(ctx.deps, ctx.principal, input.id);
      return { message: 'Form deleted' };
    }),

  submissions: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/forms/{id}/submissions', operationId: 'listFormSubmissions', tags, summary: "A form's accepted submissions, newest first" } })
    .input(z.strictObject({ ...byId, ...pageQuery({ max: 100, default: 20 }) }))
    .output(z.object({ data: z.array(submission), nextCursor: z.uuid().nullable() }))
    .query(({ ctx, input }) => listFormSubmissions(ctx.deps, ctx.principal, input.id, { limit: input.limit, cursor: input.cursor })),
});
