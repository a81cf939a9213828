import { MAX_REQUEST_TARGET_BYTES } from '../trpc/request-limits';
import { BODY_LIMITS } from '../trpc/request-limits';
import { z } from 'zod';
import { createTemplate, deleteTemplate, getTemplate, listTemplates, updateTemplate } from '../services/templates/crud';
import { DECLARED_KEY, DECLARED_LIMITS, type DeclaredVariable } from '../services/templates/declared';
import { duplicateTemplate } from '../services/templates/duplicate';
import { publishTemplate } from '../services/templates/publish';
import { TEMPLATE_LIMITS } from '../services/templates/limits';
import { previewContent, previewTemplate } from '../services/templates/preview';
import { sendTemplateTest } from '../services/templates/test-send';
import { parseVariables } from '../services/templates/variables';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { mailbox } from './emails/wire';
import { EMAIL_LIMITS } from '../services/emails/accept/limits';
import { idParam, isoDate, jsonBoolean, messageResponse, pageQuery } from './shared';

const NO_BREAKS = /^[^\r\n\0]*$/;

const templateSummary = z
  .object({
    id: z.uuid(),
    name: z.string(),
    alias: z.string().nullable().describe("Resend's alias: another name for the template, unique within the organization"),
    subject: z.string().describe('Liquid source of the subject'),
    variables: z.array(z.string()).describe('The variables its subject, html and text read, found when it was saved'),
    status: z
      .enum(['published', 'draft'])
      .describe('`published`: what it shows is what a send renders; `draft`: never published (it cannot be sent yet), or changes wait for `POST /templates/{id}/publish`'),
    publishedAt: isoDate.nullable().describe('When what a send renders was published (every change of a template without drafts); null: never published'),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'TemplateSummary' });

const template = templateSummary
  .extend({
    html: z.string().nullable().describe('Liquid source of the HTML body: outputs are HTML-escaped'),
    text: z.string().nullable().describe('Liquid source of the plain-text body'),
    declaredVariables: z
      .array(z.object({ key: z.string(), type: z.enum(['string', 'number']), fallbackValue: z.union([z.string(), z.number()]).nullable() }))
      .describe("Variables declared with a type and a fallback (Resend's `variables` on create and update)"),
    from: z.string().nullable().describe('The sender of a send by this template that gives no `from`'),
    replyTo: z.array(z.string()).describe('The reply-to addresses of a send by this template that gives no `reply_to`'),
    drafts: z.boolean().describe('Whether changes wait for a publish (created with `draft: true`, or published once); false: a change is sent at once'),
  })
  .meta({ id: 'Template' });

const rendered = z
  .object({
    subject: z.string(),
    html: z.string().nullable(),
    text: z.string().nullable(),
    missingVariables: z.array(z.string()).describe('Variables read without a default that were not given: they rendered empty'),
  })
  .meta({ id: 'TemplatePreview' });

/** The editor's content, saved or not: what the dashboard's live preview and "Send test" render. */
const content = {
  subject: z.string().max(TEMPLATE_LIMITS.subjectChars).regex(NO_BREAKS, 'must not contain CR, LF or NUL'),
  html: z.string().max(TEMPLATE_LIMITS.bodyBytes).optional(),
  text: z.string().max(TEMPLATE_LIMITS.bodyBytes).optional(),
};
/** As typed in the editor: a JSON object, its errors those of the REST preview's `variables`. */
const sampleVariables = z
  .string()
  .max(TEMPLATE_LIMITS.sampleVariablesChars, `must be at most ${TEMPLATE_LIMITS.sampleVariablesChars} characters`)
  .optional();
const sourceOf = (input: { subject: string; html?: string; text?: string }) => ({ subject: input.subject, html: input.html ?? null, text: input.text ?? null });

const name = z.string().min(1, 'must not be empty').max(TEMPLATE_LIMITS.nameChars);
const subject = z
  .string()
  .min(1, 'must not be empty')
  .max(TEMPLATE_LIMITS.subjectChars)
  .regex(NO_BREAKS, 'must not contain CR, LF or NUL')
  .describe('Liquid: {{ name }}, {{ name | default: "there" }}, {% if %}; or Resend\'s {{{NAME}}}, {{{NAME|fallback}}}');
const body = z.string().max(TEMPLATE_LIMITS.bodyBytes);
const html = body.describe('Liquid; outputs are HTML-escaped ({{ x | raw }} opts out). Give html, text or both');
const text = body.describe('Liquid; outputs as they are. Give html, text or both');

/** Resend's declared variables, `variables: [{ key, type, fallback_value }]`, as the service takes them. */
const declaredVariables = z
  .array(
    z.strictObject({
      key: z.string().max(DECLARED_LIMITS.keyChars).regex(DECLARED_KEY, 'must be a name of letters, digits and _, not starting with a digit'),
      type: z.enum(['string', 'number']),
      fallback_value: z
        .union([z.string().max(DECLARED_LIMITS.fallbackChars), z.number()])
        .nullable()
        .optional()
        .describe('Used when a send does not give the variable; without one a send must give it'),
    }),
  )
  .max(DECLARED_LIMITS.variables)
  .describe(
    "Resend's declared variables: each send's value is checked against `type`, and `fallback_value` is used when a send does not give it; a send without a variable that has no fallback is refused. Keys FIRST_NAME, LAST_NAME, EMAIL, UNSUBSCRIBE_URL, RESEND_UNSUBSCRIBE_URL, contact and this are reserved",
  );
type DeclaredInput = z.infer<typeof declaredVariables>;
const toDeclared = (list: DeclaredInput): DeclaredVariable[] => list.map((variable) => ({ key: variable.key, type: variable.type, fallbackValue: variable.fallback_value ?? null }));

/** Resend's template `from` and `reply_to`: what a send by the template uses when it gives none. */
const sendingDefaults = {
  from: mailbox('from').describe('Used as the sender of a send by this template that gives no `from` (its domain is checked at the send, as any sender)'),
  reply_to: z
    .union([mailbox('reply_to'), z.array(mailbox('reply_to')).max(EMAIL_LIMITS.recipients)])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .describe('Used as the reply-to addresses of a send by this template that gives no `reply_to`'),
};
const UUID_SHAPED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const alias = z
  .string()
  .min(1, 'must not be empty')
  .max(TEMPLATE_LIMITS.nameChars)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'may contain only letters, digits, ., _ and -, starting with a letter or digit')
  .refine((value) => !UUID_SHAPED.test(value), 'must not look like a template id (a UUID)')
  .describe("Resend's alias: another name, unique within the organization (409 when another template has it); answered, not yet taken in place of the id");

const tags = ['Templates'];
const byId = z.strictObject({ id: idParam });
// A template's html and text may reach the body bound of an email, JSON-escaped.
const bodyLimitBytes = BODY_LIMITS.content;

export const templatesRouter = router({
  create: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/templates', operationId: 'createTemplate', tags, summary: 'Create a template (Liquid placeholders, no loops or includes)' }, successStatus: 201, liveWrite: true, bodyLimitBytes, errors: [409] })
    .input(
      z.strictObject({
        name,
        subject,
        html: html.optional(),
        text: text.optional(),
        variables: declaredVariables.optional(),
        from: sendingDefaults.from.optional(),
        reply_to: sendingDefaults.reply_to.optional(),
        alias: alias.optional(),
        draft: jsonBoolean().optional().describe('true: changes wait for `POST /templates/{id}/publish`, and the template cannot be sent before its first publish (Resend\'s create-then-publish)'),
      }),
    )
    .output(template)
    .mutation(({ ctx, input }) => {
      const { reply_to: replyTo, ...rest } = input;
      return createTemplate(ctx.deps, ctx.principal, { ...rest, replyTo, variables: input.variables && toDeclared(input.variables) });
    }),

  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/templates', operationId: 'listTemplates', tags, summary: 'List templates, newest first, without their bodies' } })
    .input(z.strictObject({ ...pageQuery({ max: 100, default: 50 }) }))
    .output(z.object({ data: z.array(templateSummary), nextCursor: z.uuid().nullable() }))
    .query(({ ctx, input }) => listTemplates(ctx.deps, ctx.principal, input)),

  duplicate: orgProcedure
    .meta({
      openapi: { method: 'POST', path: '/templates/{id}/duplicate', operationId: 'duplicateTemplate', tags, summary: 'A new template with the subject and bodies of this one, named "… (copy)"' },
      successStatus: 201,
      liveWrite: true,
    })
    .input(byId)
    .output(template)
    .mutation(({ ctx, input }) => duplicateTemplate(ctx.deps, ctx.principal, input.id)),

  publish: orgProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/templates/{id}/publish',
        operationId: 'publishTemplate',
        tags,
        summary: 'Publish: sends render the template as last written; from then on changes wait for the next publish',
        description:
          "Resend's create-then-publish. The template's draft (or, never published, its content) becomes what `POST /emails` and broadcasts render, and the template has drafts from then on: a `PATCH` changes the draft, which `GET` shows (`status: draft`), until the next publish. A template without drafts (the spec's) sends every change at once until it is first published.",
      },
      liveWrite: true,
    })
    .input(byId)
    .output(template)
    .mutation(({ ctx, input }) => publishTemplate(ctx.deps, ctx.principal, input.id)),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/templates/{id}', operationId: 'getTemplate', tags, summary: 'Get a template' } })
    .input(byId)
    .output(template)
    .query(({ ctx, input }) => getTemplate(ctx.deps, ctx.principal, input.id)),

  preview: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/templates/{id}/preview', operationId: 'previewTemplate', tags, summary: 'Render a template with variables, as a send would' } })
    .input(z.strictObject({ id: idParam, variables: z.string().max(MAX_REQUEST_TARGET_BYTES, `must be at most ${MAX_REQUEST_TARGET_BYTES} characters`).optional().describe(`A URL-encoded JSON object: {"name":"Ada"}; the whole URL may be ${MAX_REQUEST_TARGET_BYTES} bytes long`) }))
    .output(rendered)
    .query(({ ctx, input }) => previewTemplate(ctx.deps, ctx.principal, input.id, parseVariables(input.variables))),

  /**
   * For the dashboard only (no REST path): the editor's content as being written, rendered with
   * sample variables, with the variables it reads. Asked as a POST (method override): unsaved
   * bodies may be larger than a URL.
   */
  previewContent: orgProcedure
    .meta({ bodyLimitBytes })
    .input(z.strictObject({ ...content, variables: sampleVariables }))
    .output(rendered.extend({ variables: z.array(z.string()) }))
    .query(({ ctx, input }) => previewContent(ctx.deps, sourceOf(input), parseVariables(input.variables))),

  /**
   * For the dashboard only (no REST path): the editor's "Send test", the content as it stands
   * (saved or not) rendered with the sample variables, to one address, through POST /emails'
   * send path in the caller's mode.
   */
  sendTest: orgProcedure
    .meta({ bodyLimitBytes })
    .input(z.strictObject({ id: idParam, from: mailbox('from'), to: mailbox('to'), ...content, variables: sampleVariables }))
    .output(z.object({ id: z.uuid() }))
    .mutation(({ ctx, input }) => sendTemplateTest(ctx.deps, ctx.principal, input.id, { from: input.from, to: input.to, variables: parseVariables(input.variables), content: sourceOf(input) })),

  update: orgProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/templates/{id}',
        operationId: 'updateTemplate',
        tags,
        summary: 'Change any of name, subject, html, text, variables, from, reply_to and alias (null removes html, text, the declared variables, from, reply_to or alias)',
        description: 'A template without drafts sends the change at once. A published template with drafts keeps it as its draft until `POST /templates/{id}/publish`.',
      },
      liveWrite: true,
      bodyLimitBytes,
      errors: [409],
    })
    .input(
      z.strictObject({
        id: idParam,
        name: name.optional(),
        subject: subject.optional(),
        html: html.nullable().optional(),
        text: text.nullable().optional(),
        variables: declaredVariables.nullable().optional(),
        from: sendingDefaults.from.nullable().optional(),
        reply_to: sendingDefaults.reply_to.nullable().optional(),
        alias: alias.nullable().optional(),
      }),
    )
    .output(template)
    .mutation(({ ctx, input }) =>
      updateTemplate(ctx.deps, ctx.principal, input.id, {
        name: input.name,
        subject: input.subject,
        html: input.html,
        text: input.text,
        variables: input.variables === undefined || input.variables === null ? input.variables : toDeclared(input.variables),
        from: input.from,
        replyTo: input.reply_to,
        alias: input.alias,
      }),
    ),

  delete: orgProcedure
    .meta({
      openapi: { method: 'DELETE', path: '/templates/{id}', operationId: 'deleteTemplate', tags, summary: 'Delete a template (409 while a sign-up form writes its confirmation mail with it)' },
      liveWrite: true,
      errors: [409],
    })
    .input(byId)
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await deleteTemplate(ctx.deps, ctx.principal, input.id);
      return { message: 'Template deleted' };
    }),
});
