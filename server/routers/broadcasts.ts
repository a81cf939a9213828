import { BODY_LIMITS } from '../trpc/request-limits';
import { z } from 'zod';
import { previewBroadcast } from '../services/broadcasts/preview';
import { cancelBroadcast, sendBroadcast } from '../services/broadcasts/send';
import { AUDIENCE_NAMES, createBroadcast, deleteBroadcast, getBroadcast, listBroadcasts, updateBroadcast } from '../services/broadcasts/crud';
import { BROADCAST_NAME_CHARS, duplicateBroadcast } from '../services/broadcasts/duplicate';
import { preflightBroadcast } from '../services/broadcasts/preflight/preflight';
import { CHECK_STATUSES, PREFLIGHT_CHECK_IDS } from '../services/broadcasts/preflight/checks';
import { BROADCAST_STATUSES, HOLD_REASONS } from '../vocabulary/broadcast-statuses';
import { PREVIEW_TEXT_CHARS, TEST_RECIPIENTS_MAX } from '../services/broadcasts/limits';
import { sendTestCopies } from '../services/broadcasts/test-send';
import { EMAIL_LIMITS } from '../services/emails/accept/limits';
import { TEMPLATE_LIMITS } from '../services/templates/limits';
import { mailbox } from './emails/wire';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { idParam, isoDate, jsonBoolean, messageResponse, pageQuery, underOneName } from './shared';

const NO_BREAKS = /^[^\r\n\0]*$/;

const counts = z
  .object({
    recipients: z.number().int().describe('Subscribed contacts when sending started'),
    queued: z.number().int().describe('Emails handed to delivery'),
    sent: z.number().int(),
    delivered: z.number().int(),
    bounced: z.number().int(),
    complained: z.number().int(),
    opened: z.number().int().describe('Emails opened at least once'),
    openedHuman: z.number().int().describe('Emails opened at least once by a person (an open not recorded as a machine\'s)'),
    openedMachine: z.number().int().describe('Emails opened only by machines so far (privacy proxies, scanners): opened minus openedHuman'),
    clicked: z.number().int().describe('Emails with at least one tracked click'),
    clickedHuman: z.number().int().describe('Emails with at least one tracked click by a person'),
    clickedMachine: z.number().int().describe('Emails clicked only by machines so far (link scanners): clicked minus clickedHuman'),
    unsubscribed: z.number().int().describe('Emails whose recipient unsubscribed through them'),
    suppressed: z.number().int().describe('Contacts skipped: on the suppression list'),
    skipped: z.number().int().describe('Contacts skipped: unsubscribed or removed after sending started'),
    canceled: z.number().int().describe('Queued emails withdrawn by a cancel'),
  })
  .meta({ id: 'BroadcastCounts' });

const summary = z
  .object({
    id: z.uuid(),
    name: z.string(),
    audienceId: z.uuid().nullable().describe('Null once the audience was deleted'),
    topicId: z.uuid().nullable().describe('The topic it is sent under: only the contacts in it get it, and its unsubscribe leaves the topic only; null for none'),
    requireConfirmedConsent: z.boolean().describe('Only contacts whose consent was confirmed (double opt-in, or an import that declared it) get it; the others are skipped'),
    from: z.string(),
    subject: z.string().nullable().describe('Liquid; null with a template: the template\'s subject'),
    templateId: z.uuid().nullable(),
    status: z.enum(BROADCAST_STATUSES),
    heldReason: z.enum(HOLD_REASONS).nullable().describe('Why a held broadcast waits: review, or a limit until it resets'),
    failedReason: z.string().nullable(),
    scheduledAt: isoDate.nullable(),
    startedAt: isoDate.nullable(),
    sentAt: isoDate.nullable().describe('When the last message was handed to delivery'),
    cancelledAt: isoDate.nullable(),
    counts,
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'BroadcastSummary' });

const broadcast = summary
  .extend({
    replyTo: z.array(z.string()),
    html: z.string().nullable().describe('Liquid: {{ email }}, {{ name }}, {{ unsubscribe_url }}; outputs are HTML-escaped'),
    text: z.string().nullable(),
    previewText: z.string().nullable().describe('The preheader: put hidden at the start of each copy\'s HTML body'),
  })
  .meta({ id: 'Broadcast' });

const check = z
  .object({
    id: z.enum(PREFLIGHT_CHECK_IDS),
    status: z.enum(CHECK_STATUSES),
    title: z.string(),
    detail: z.string().describe('What was found and, for warn and fail, how to fix it'),
    fix: z
      .object({
        resource: z.literal('domain'),
        id: z.uuid().nullable().describe('The domain to fix (GET /domains/{id}); null while it is not a domain of the account: register it'),
        name: z.string().nullable().describe('Its name; null when any domain of the account’s own would do (a From on the shared sandbox)'),
      })
      .nullable()
      .describe('What to change to fix a warn or fail: the From domain; null when the fix is in the broadcast itself, and for a pass'),
  })
  .meta({ id: 'PreflightCheck' });
const preflight = z.object({ ready: z.boolean().describe('No check fails (warnings do not stop a send)'), checks: z.array(check) }).meta({ id: 'BroadcastPreflight' });

const name = z.string().trim().min(1, 'must not be empty').max(BROADCAST_NAME_CHARS).regex(NO_BREAKS, 'must not contain CR, LF or NUL');
const subject = z
  .string()
  .min(1, 'must not be empty')
  .max(EMAIL_LIMITS.subjectChars)
  .regex(NO_BREAKS, 'must not contain CR, LF or NUL')
  .describe('Liquid: {{ name | default: "there" }}');
const body = z.string().max(TEMPLATE_LIMITS.bodyBytes);
const replyTo = z.union([mailbox('reply_to'), z.array(mailbox('reply_to')).max(EMAIL_LIMITS.recipients)]).transform((value) => (Array.isArray(value) ? value : [value]));
/** Resend's `preview_text`, the preheader (services/broadcasts/preheader.ts). */
const previewText = z
  .string()
  .max(PREVIEW_TEXT_CHARS)
  .regex(NO_BREAKS, 'must not contain CR, LF or NUL')
  .describe("The preheader (Resend's `preview_text`): plain text inboxes show after the subject, put hidden at the start of each copy's HTML body; not Liquid");
const when = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time such as 2026-11-21T10:00:00Z' });

const audienceId = z.uuid({ message: 'must be the id of one of your audiences' });
/** Resend's name for `audience_id` (a segment is an audience under another name, docs/contacts.md): one of the two. */
const segmentId = z.uuid({ message: 'must be the id of one of your segments (audiences)' }).describe("Resend's name for `audience_id`: give one of the two");
const requireConfirmedConsent = jsonBoolean().describe('Send only to contacts whose consent was confirmed: a double opt-in link clicked, or an import that declared its rows confirmed (docs/consent.md). The others are skipped. Default false');
const topicId = z
  .uuid({ message: 'must be the id of one of your topics' })
  .nullable()
  .describe('Send under this topic: only the contacts in it get the broadcast (their choice, else the topic\'s default), and its unsubscribe leaves the topic only; null for none');

/** The fields create and update share, from the wire's snake_case to the service's input. */
const fieldsOf = <T extends { from?: string; subject?: string | null; html?: string | null; text?: string | null; template_id?: string | null; name?: string; reply_to?: string[]; preview_text?: string | null }>(input: T) => ({
  from: input.from,
  subject: input.subject,
  html: input.html,
  text: input.text,
  templateId: input.template_id,
  name: input.name,
  replyTo: input.reply_to,
  previewText: input.preview_text,
});

const tags = ['Broadcasts'];
const byId = { id: idParam };
// A broadcast's html and text may reach an email's body bound, JSON-escaped.
const bodyLimitBytes = BODY_LIMITS.content;

export const broadcastsRouter = router({
  create: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/broadcasts', operationId: 'createBroadcast', tags, summary: 'Create a broadcast (draft)' }, successStatus: 201, liveWrite: true, bodyLimitBytes })
    .input(
      z
        .strictObject({
          audience_id: audienceId.optional().describe('Required (or segment_id)'),
          segment_id: segmentId.optional(),
          topic_id: topicId.optional(),
          require_confirmed_consent: requireConfirmedConsent.optional(),
          from: mailbox('from'),
          subject: subject.optional().describe('Required unless template_id is given (then it overrides the template\'s)'),
          html: body.optional(),
          text: body.optional(),
          template_id: z.uuid({ message: 'must be the id of one of your templates' }).optional(),
          name: name.optional().describe('Default: the subject'),
          reply_to: replyTo.optional(),
          preview_text: previewText.optional(),
        })
        .superRefine(underOneName(AUDIENCE_NAMES)),
    )
    .output(broadcast)
    .mutation(({ ctx, input }) =>
      createBroadcast(ctx.deps, ctx.principal, {
        ...fieldsOf(input),
        audienceId: (input.audience_id ?? input.segment_id)!,
        topicId: input.topic_id,
        requireConfirmedConsent: input.require_confirmed_consent,
        from: input.from,
        subject: input.subject,
        html: input.html,
        text: input.text,
        templateId: input.template_id,
        previewText: input.preview_text,
      }),
    ),

  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/broadcasts', operationId: 'listBroadcasts', tags, summary: 'List broadcasts, newest first, with status and counts' } })
    .input(z.strictObject({ ...pageQuery({ max: 100, default: 20 }) }))
    .output(z.object({ data: z.array(summary), nextCursor: z.uuid().nullable() }))
    .query(({ ctx, input }) => listBroadcasts(ctx.deps, ctx.principal, input)),

  duplicate: orgProcedure
    .meta({
      openapi: { method: 'POST', path: '/broadcasts/{id}/duplicate', operationId: 'duplicateBroadcast', tags, summary: 'A new draft with the audience, sender and content of this broadcast, named "… (copy)"' },
      successStatus: 201,
      liveWrite: true,
    })
    .input(z.strictObject(byId))
    .output(broadcast)
    .mutation(({ ctx, input }) => duplicateBroadcast(ctx.deps, ctx.principal, input.id)),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/broadcasts/{id}', operationId: 'getBroadcast', tags, summary: 'Get a broadcast with its counts' } })
    .input(z.strictObject(byId))
    .output(broadcast)
    .query(({ ctx, input }) => getBroadcast(ctx.deps, ctx.principal, input.id)),

  /**
   * For the dashboard only (no REST path): the broadcast as one contact gets it, saved (`id`) or
   * as being written (the content fields), and how many subscribed contacts its audience has now.
   * The composer asks it as a POST (method override): unsaved bodies may be larger than a URL.
   */
  preview: orgProcedure
    .meta({ bodyLimitBytes })
    .input(
      z.strictObject({
        id: idParam.optional(),
        subject: z.string().max(EMAIL_LIMITS.subjectChars).optional(),
        html: body.optional(),
        text: body.optional(),
        template_id: z.uuid({ message: 'must be the id of one of your templates' }).optional(),
        audience_id: z.uuid({ message: 'must be the id of one of your audiences' }).optional(),
        preview_text: previewText.optional(),
        topic_id: z.uuid({ message: 'must be the id of one of your topics' }).optional(),
        require_confirmed_consent: jsonBoolean().optional(),
        contact_id: z.uuid({ message: 'must be the id of a contact' }).optional(),
      }),
    )
    .query(({ ctx, input }) =>
      previewBroadcast(
        ctx.deps,
        ctx.principal,
        input.id
          ? { id: input.id }
          : { content: { subject: input.subject, html: input.html, text: input.text, templateId: input.template_id, audienceId: input.audience_id, previewText: input.preview_text, topicId: input.topic_id, requireConfirmedConsent: input.require_confirmed_consent } },
        input.contact_id,
      ),
    ),

  update: orgProcedure
    .meta({
      openapi: { method: 'PATCH', path: '/broadcasts/{id}', operationId: 'updateBroadcast', tags, summary: 'Change a draft or scheduled broadcast, or schedule it (scheduled_at; null unschedules)' },
      liveWrite: true,
      bodyLimitBytes,
      errors: [409],
    })
    .input(
      z.strictObject({
        ...byId,
        audience_id: audienceId.optional(),
        segment_id: segmentId.optional(),
        topic_id: topicId.optional(),
        require_confirmed_consent: requireConfirmedConsent.optional(),
        from: mailbox('from').optional(),
        subject: subject.nullable().optional(),
        html: body.nullable().optional(),
        text: body.nullable().optional(),
        template_id: z.uuid({ message: 'must be the id of one of your templates' }).nullable().optional(),
        name: name.optional(),
        reply_to: replyTo.optional(),
        preview_text: previewText.nullable().optional().describe('null removes it'),
        scheduled_at: when.nullable().optional(),
      }),
    )
    .output(broadcast)
    .mutation(({ ctx, input }) =>
      updateBroadcast(ctx.deps, ctx.principal, input.id, {
        ...fieldsOf(input),
        audienceId: input.audience_id,
        segmentId: input.segment_id,
        topicId: input.topic_id,
        requireConfirmedConsent: input.require_confirmed_consent,
        scheduledAt: input.scheduled_at === undefined ? undefined : input.scheduled_at === null ? null : new Date(input.scheduled_at),
      }),
    ),

  delete: orgProcedure
    .meta({ openapi: { method: 'DELETE', path: '/broadcasts/{id}', operationId: 'deleteBroadcast', tags, summary: 'Delete a draft or cancelled broadcast' }, liveWrite: true, errors: [409] })
    .input(z.strictObject(byId))
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await deleteBroadcast(ctx.deps, ctx.principal, input.id);
      return { message: 'Broadcast deleted' };
    }),

  send: orgProcedure
    .meta({
      openapi: { method: 'POST', path: '/broadcasts/{id}/send', operationId: 'sendBroadcast', tags, summary: 'Send now, schedule (scheduled_at) or resume a held broadcast; needs a paid plan' },
      liveWrite: true,
      errors: [409],
    })
    .input(z.strictObject({ ...byId, scheduled_at: when.optional() }))
    .output(broadcast)
    .mutation(({ ctx, input }) => sendBroadcast(ctx.deps, ctx.principal, input.id, { scheduledAt: input.scheduled_at ? new Date(input.scheduled_at) : undefined })),

  test: orgProcedure
    .meta({
      openapi: { method: 'POST', path: '/broadcasts/{id}/test', operationId: 'testBroadcast', tags, summary: "Send a test copy to the account owner's address or addresses on your verified domains" },
    })
    .input(z.strictObject({ ...byId, to: z.array(mailbox('to')).min(1, 'give at least one address').max(TEST_RECIPIENTS_MAX, `at most ${TEST_RECIPIENTS_MAX} addresses`) }))
    .output(z.object({ data: z.array(z.object({ id: z.uuid().describe('The test email') })) }))
    .mutation(({ ctx, input }) => sendTestCopies(ctx.deps, ctx.principal, input.id, input.to)),

  cancel: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/broadcasts/{id}/cancel', operationId: 'cancelBroadcast', tags, summary: 'Cancel a scheduled, sending or held broadcast' }, liveWrite: true, errors: [409] })
    .input(z.strictObject(byId))
    .output(broadcast)
    .mutation(({ ctx, input }) => cancelBroadcast(ctx.deps, ctx.principal, input.id)),

  preflight: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/broadcasts/{id}/preflight', operationId: 'preflightBroadcast', tags, summary: "Check Gmail's and Yahoo's bulk-sender rules before sending: each check passes, warns or fails with how to fix it" } })
    .input(z.strictObject(byId))
    .output(preflight)
    .query(({ ctx, input }) => preflightBroadcast(ctx.deps, ctx.principal, input.id)),
});
