import { BODY_LIMITS } from '../../trpc/request-limits';
import { z } from 'zod';
import { sendEmail } from '../../services/emails/accept/send';
import { preflightEmail } from '../../services/emails/preflight/preflight';
import { preflightVerdict } from './preflight-schema';
import { getEmail, listEmails } from '../../services/emails/read';
import { cancelEmail, rescheduleEmail } from '../../services/emails/schedule';
import { EMAIL_SOURCES } from '../../services/emails/source';
import { EMAIL_STATUSES } from '../../vocabulary/email-statuses';
import { EMAIL_EVENT_TYPES } from '../../vocabulary/event-types';
import { BOUNCE_CLASSES } from '../../services/bounces/classify';
import { getProcessingRecord } from '../../services/privacy/processing-record';
import { router } from '../../trpc/init';
import { orgProcedure } from '../../trpc/procedures';
import { idParam, isoDate, pageQuery } from '../shared';
import { rawSourceOf } from '../../services/emails/message/raw-source';
import { sentByOf } from '../../services/emails/sent-by';
import { rawSource, rawSourceAnswer, sentBy } from './inspect';
import { processingRecord } from './processing-record';
import { emailBody, idempotencyKeyFrom, toSendEmailInput } from './wire';

const tag = z.object({ name: z.string(), value: z.string() });

const bounceExplanation = z
  .object({
    class: z
      .enum(BOUNCE_CLASSES)
      .describe('Why the message was refused, delayed or complained about: mailbox_unknown, mailbox_full, domain_missing, spam_block, policy, greylisted, rate_limited, message_too_large, tls_required, other, or complaint (docs/bounces.md)'),
    explanation: z.string().describe('What it means and what to do, in one or two plain sentences'),
  })
  .describe('On email.bounced, email.delivery_delayed, email.failed (with a server response) and email.complained: the classified response, next to the raw text')
  .meta({ id: 'BounceExplanation' });

const emailSummary = z
  .object({
    id: z.uuid(),
    from: z.string(),
    to: z.array(z.string()),
    subject: z.string(),
    status: z.enum(EMAIL_STATUSES),
    tags: z.array(tag),
    scheduledAt: isoDate.nullable(),
    source: z
      .enum(EMAIL_SOURCES)
      .describe('How the email came in: `api` (POST /emails or /emails/batch), `smtp` (the SMTP relay gateway) or `broadcast` (a message of a broadcast)'),
    createdAt: isoDate,
  })
  .meta({ id: 'EmailSummary' });

const email = emailSummary
  .extend({
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
    replyTo: z.array(z.string()),
    html: z.string().nullable(),
    text: z.string().nullable(),
    headers: z.record(z.string(), z.string()),
    tracking: z.object({ opens: z.boolean(), clicks: z.boolean() }),
    attachments: z.array(z.object({ id: z.uuid(), filename: z.string(), contentType: z.string(), size: z.number().int(), expired: z.boolean() })),
    events: z
      .array(
        z.object({
          type: z.enum(EMAIL_EVENT_TYPES),
          recipient: z.string().nullable(),
          data: z
            .looseObject({ bounce: bounceExplanation.optional() })
            .describe('What the event says (e.g. `response`, `smtpCode`, `host`, `diagnostic`, `status`, `feedbackType`); webhook payloads carry the same fields'),
          createdAt: isoDate,
        }),
      )
      .describe('Oldest first'),
  })
  .meta({ id: 'Email' });

/** What a first-time caller needs before the field list: modes, the sandbox, the test addresses, retries. */
const SEND_DESCRIPTION = [
  'The body is either a `template_id` (with its `variables`), or Resend\'s `template: { id, variables }` (the same, by another name), or a `subject` with `html`, `text` or both (`oneOf` below). The answer is `{ id }` once the email is queued; `GET /emails/{id}` shows its status and events.',
  '',
  '**Test mode.** With a test key (`eu_test_…`) the email runs the whole pipeline but is never delivered: it plays `email.sent`, then `email.delivered` per recipient, then `email.opened` and `email.clicked` as its tracking settings allow, a few seconds apart, and fires the same webhooks. A recipient with the local part `bounced` (`bounced@example.com`) plays a bounce, `complained` a complaint. Test emails are seen by test keys only.',
  '',
  "**The sandbox domain.** Every organization may send from the shared sandbox domain listed by `GET /domains` with `sandbox: true` (`sandbox.<host of APP_URL>` unless the operator names it): a test key to any address, a live key only to the account owner's confirmed address (403 `FORBIDDEN` for anyone else). A key pinned to a domain may not use it (403 `FORBIDDEN`). Any other From domain must be a verified domain of the organization (403 `DOMAIN_NOT_VERIFIED`).",
  '',
  '**Idempotency.** Send an `Idempotency-Key` header (at most 255 characters) to retry safely: a repeat within 24 hours answers the first email\'s `{ id }` and sends nothing more; a repeat while the first request is still running answers 409 `CONFLICT`.',
].join('\n');

const sendResponse = z.object({ id: z.uuid() }).meta({ id: 'SendResponse' });
const tags = ['Emails'];
const sendHeaders = z.object({ 'Idempotency-Key': z.string().max(255).optional().describe('A repeat within 24 hours returns the first email instead of sending again') });

export const emailsRouter = router({
  send: orgProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/emails',
        operationId: 'sendEmail',
        tags,
        summary: 'Send an email (or schedule it with scheduled_at)',
        description: SEND_DESCRIPTION,
        requestHeaders: sendHeaders,
      },
      access: 'sending',
      bodyLimitBytes: BODY_LIMITS.send,
      // A concurrent request with the same Idempotency-Key still in progress.
      errors: [409],
    })
    .input(emailBody)
    .output(sendResponse)
    .mutation(({ ctx, input }) => sendEmail(ctx.deps, ctx.principal, toSendEmailInput(input, idempotencyKeyFrom(ctx.header('idempotency-key'))))),

  preflight: orgProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/emails/preflight',
        operationId: 'preflightEmail',
        tags,
        summary: 'Dry run: what POST /emails would do with this request (accepted or the refusal, per recipient, the limits, warnings), storing and sending nothing',
        description:
          'Takes the body and Idempotency-Key of POST /emails and runs the same checks in the same order. A body POST /emails would refuse as malformed is refused here the same way (400); every later refusal is the verdict\'s `refusal`. Counts against the rate limit only.',
        requestHeaders: sendHeaders,
      },
      // Not a send: the spec keeps sending_access keys to the four send paths.
      bodyLimitBytes: BODY_LIMITS.send,
    })
    .input(emailBody)
    .output(preflightVerdict)
    .mutation(({ ctx, input }) => preflightEmail(ctx.deps, ctx.principal, toSendEmailInput(input, idempotencyKeyFrom(ctx.header('idempotency-key'))))),

  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/emails', operationId: 'listEmails', tags, summary: 'List emails, newest first, with filters' } })
    .input(
      z.object({
        ...pageQuery({ max: 100, default: 10 }),
        status: z.enum(EMAIL_STATUSES).optional(),
        from: z.string().max(320).optional().describe('Exact sender address'),
        to: z.string().max(320).optional().describe('Any recipient, case-insensitive'),
        tag: z.array(z.string().max(513)).max(10).optional().describe('name:value for that pair, or a bare name; repeat to AND'),
      }),
    )
    .output(z.object({ data: z.array(emailSummary), next_cursor: z.uuid().nullable() }))
    .query(async ({ ctx, input }) => {
      const page = await listEmails(ctx.deps, ctx.principal, input);
      return { data: page.data, next_cursor: page.nextCursor };
    }),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/emails/{id}', operationId: 'getEmail', tags, summary: 'Get an email with its event history, oldest first' } })
    .input(z.object({ id: idParam }))
    .output(email)
    .query(({ ctx, input }) => getEmail(ctx.deps, ctx.principal, input.id)),

  /** For the dashboard only (no REST path): which API key, channel or broadcast sent the email. */
  sentBy: orgProcedure
    .input(z.strictObject({ id: idParam }))
    .output(sentBy)
    .query(({ ctx, input }) => sentByOf(ctx.deps, ctx.principal, input.id)),

  /**
   * For the dashboard only (no REST path): the raw MIME source, built again as it was sent
   * (docs/emails.md, "Raw source"); the first 256 KiB, the whole message downloads as .eml.
   */
  rawSource: orgProcedure
    .input(z.strictObject({ id: idParam }))
    .output(rawSource)
    .query(async ({ ctx, input }) => rawSourceAnswer(await rawSourceOf(ctx.deps, ctx.principal, input.id))),

  processingRecord: orgProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/emails/{id}/processing-record',
        operationId: 'getEmailProcessingRecord',
        tags,
        summary: 'What was processed for this email, where, by whom, and when each part is deleted (GDPR Art. 30 and 15)',
      },
    })
    .input(z.object({ id: idParam }))
    .output(processingRecord)
    .query(({ ctx, input }) => getProcessingRecord(ctx.deps, ctx.principal, input.id)),

  reschedule: orgProcedure
    .meta({ openapi: { method: 'PATCH', path: '/emails/{id}', operationId: 'updateEmail', tags, summary: 'Change the send time of a scheduled email' }, access: 'sending', errors: [409] })
    .input(z.strictObject({ id: idParam, scheduled_at: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }) }))
    .output(z.object({ id: z.uuid(), scheduledAt: isoDate }))
    .mutation(({ ctx, input }) => rescheduleEmail(ctx.deps, ctx.principal, input.id, new Date(input.scheduled_at))),

  cancel: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/emails/{id}/cancel', operationId: 'cancelEmail', tags, summary: 'Cancel a scheduled email' }, access: 'sending', errors: [409] })
    .input(z.strictObject({ id: idParam }))
    .output(z.object({ id: z.uuid(), status: z.literal('canceled') }))
    .mutation(({ ctx, input }) => cancelEmail(ctx.deps, ctx.principal, input.id)),
});
