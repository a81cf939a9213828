import { z } from 'zod';
import { validationError } from '../../errors';
import { jsonBoolean } from '../shared';
import type { AttachmentInput, EmailInput, EmailRequest, SendEmailInput } from '../../services/emails/accept/input';
import { ALLOWED_HEADER, EMAIL_LIMITS } from '../../services/emails/accept/limits';
import { AddressError, parseMailbox } from '../../services/shared/addresses';

// The wire format of an email (snake_case, strict, base64 attachments), parsed here and handed to
// the accept path as its typed input: the services never see the request body.

/** A string that must parse as one mailbox (`Name <addr>` or `addr`), refused with the parser's reason. */
export const mailbox = (field: string) =>
  z.string().superRefine((value, ctx) => {
    try {
      parseMailbox(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: error instanceof AddressError ? error.message : `${field} is not a valid email address` });
    }
  });

const oneOrMany = (field: string) => z.union([mailbox(field), z.array(mailbox(field))]).transform((value) => (Array.isArray(value) ? value : [value]));

const TAG_PART = /^[A-Za-z0-9_-]+$/;
const tag = z.strictObject({
  name: z.string().min(1).max(EMAIL_LIMITS.tagChars).regex(TAG_PART, 'may contain only ASCII letters, digits, _ and -'),
  value: z.string().min(1).max(EMAIL_LIMITS.tagChars).regex(TAG_PART, 'may contain only ASCII letters, digits, _ and -'),
});

const NO_BREAKS = /^[^\r\n\0]*$/;

const headers = z
  .record(z.string(), z.string().max(EMAIL_LIMITS.headerValueChars).regex(NO_BREAKS, 'must not contain CR, LF or NUL'))
  .superRefine((value, ctx) => {
    const names = Object.keys(value);
    if (names.length > EMAIL_LIMITS.headers) ctx.addIssue({ code: 'custom', message: `at most ${EMAIL_LIMITS.headers} headers` });
    for (const name of names) {
      if (!ALLOWED_HEADER.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'is not a header you can set (X-* and list headers are)' });
    }
  });

const attachment = z.strictObject({
  filename: z.string().min(1).max(255).regex(NO_BREAKS, 'must not contain CR, LF or NUL'),
  content: z.base64({ message: 'must be base64' }),
  content_type: z.string().regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type such as application/pdf').optional(),
  content_id: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[^\s<>"\0]+$/, 'must be a Content-ID without spaces, quotes or angle brackets')
    .optional()
    .describe('Makes it an inline part: the HTML refers to it as cid:<content_id>'),
});

const fields = {
  from: mailbox('from').optional().describe("Required unless the template named gives one (a template's `from`)"),
  to: oneOrMany('to'),
  cc: oneOrMany('cc').optional(),
  bcc: oneOrMany('bcc').optional(),
  reply_to: oneOrMany('reply_to').optional(),
  subject: z.string().min(1, 'must not be empty').max(EMAIL_LIMITS.subjectChars).regex(NO_BREAKS, 'must not contain CR, LF or NUL').optional().describe('Required unless template_id is given'),
  html: z.string().optional(),
  text: z.string().optional(),
  template_id: z.uuid({ message: 'must be the id of one of your templates' }).optional().describe('Take subject, html and text from this template, rendered with `variables`'),
  variables: z.record(z.string(), z.unknown()).optional().describe('Values for the template\'s variables, by name (only with template_id)'),
  template: z
    .strictObject({
      id: z.uuid({ message: 'must be the id of one of your templates' }),
      variables: z.record(z.string(), z.unknown()).optional().describe("Values for the template's variables, by name"),
    })
    .optional()
    .describe("Resend's name for `template_id` + `variables`: `{ id, variables }`. Give one of the two forms"),
  headers: headers.optional(),
  tags: z.array(tag).max(EMAIL_LIMITS.tags).optional(),
  tracking: z.strictObject({ opens: jsonBoolean().optional(), clicks: jsonBoolean().optional() }).optional(),
};

type ContentFields = { from?: string; subject?: string; html?: string; text?: string; template_id?: string; variables?: Record<string, unknown>; template?: { id: string; variables?: Record<string, unknown> } };

const BOTH_TEMPLATE_FORMS = 'give template_id (with variables) or template { id, variables } (Resend\'s form), not both';

function bodyRules<T extends { to: string[]; cc?: string[]; bcc?: string[] } & ContentFields>(value: T, ctx: z.RefinementCtx) {
  const count = value.to.length + (value.cc?.length ?? 0) + (value.bcc?.length ?? 0);
  if (value.to.length === 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'needs at least one recipient' });
  if (count > EMAIL_LIMITS.recipients) ctx.addIssue({ code: 'custom', path: ['to'], message: `at most ${EMAIL_LIMITS.recipients} recipients in to, cc and bcc together` });
  if (value.template !== undefined && (value.template_id !== undefined || value.variables !== undefined)) {
    ctx.addIssue({ code: 'custom', path: ['template'], message: BOTH_TEMPLATE_FORMS });
    return;
  }
  const named = value.template_id !== undefined ? 'template_id' : value.template !== undefined ? 'template' : null;
  if (!named && value.from === undefined) ctx.addIssue({ code: 'custom', path: ['from'], message: "is required (or give a template that has a from)" });
  if (named) {
    // The template gives the subject and bodies: given beside it, which would win is a guess.
    for (const field of ['subject', 'html', 'text'] as const) {
      if (value[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: `cannot be given with ${named} (the template gives it)` });
    }
    return;
  }
  if (value.variables !== undefined) ctx.addIssue({ code: 'custom', path: ['variables'], message: 'only with template_id' });
  if (value.subject === undefined) ctx.addIssue({ code: 'custom', path: ['subject'], message: 'is required (or give template_id)' });
  if (value.html === undefined && value.text === undefined) ctx.addIssue({ code: 'custom', path: ['html'], message: 'give html, text or both (or template_id)' });
  const size = Buffer.byteLength(value.html ?? '') + Buffer.byteLength(value.text ?? '');
  if (size > EMAIL_LIMITS.bodyBytes) ctx.addIssue({ code: 'custom', path: ['html'], message: `html and text together may be at most ${EMAIL_LIMITS.bodyBytes} bytes` });
}

/**
 * bodyRules' choice of content, for the OpenAPI document (zod's JSON Schema cannot see inside a
 * refinement, and trpc-to-openapi drops such metadata): a template, or a subject with html and/or
 * text, never both. server/openapi/document.ts puts it on every send body.
 */
export const CONTENT_CHOICE = {
  oneOf: [
    {
      title: 'From a template',
      description: '`template_id` (and its `variables`): the template gives the subject, html and text',
      required: ['template_id'],
      not: { anyOf: [{ required: ['subject'] }, { required: ['html'] }, { required: ['text'] }, { required: ['template'] }] },
    },
    {
      title: "From a template, Resend's form",
      description: "`template: { id, variables }`, another name for `template_id` + `variables` (Resend's): the template gives the subject, html and text",
      required: ['template'],
      not: { anyOf: [{ required: ['subject'] }, { required: ['html'] }, { required: ['text'] }, { required: ['template_id'] }, { required: ['variables'] }] },
    },
    {
      title: 'Subject and body',
      description: '`subject` with `html`, `text` or both',
      required: ['subject'],
      anyOf: [{ required: ['html'] }, { required: ['text'] }],
      not: { anyOf: [{ required: ['template_id'] }, { required: ['variables'] }, { required: ['template'] }] },
    },
  ],
};

/** Real requests: the first is the README's first send (a test key, from the sandbox of `npm start`). */
export const SEND_EXAMPLES = [
  { from: 'Acme <onboarding@sandbox.localhost>', to: ['ada@example.com'], subject: 'Hello from EU Mail', text: 'It works!', html: '<p>It works!</p>' },
  { from: 'Acme <receipts@acme.example>', to: 'ada@example.com', template_id: '019a3c5e-7b2d-7c41-9f0e-2d6b8a1c4e73', variables: { name: 'Ada', total: '12.50 EUR' } },
];

/** A message of a batch: no attachments, no scheduled_at (spec). */
export const batchEmailBody = z.strictObject(fields).superRefine(bodyRules);

/** `POST /emails`. */
export const emailBody = z
  .strictObject({
    ...fields,
    attachments: z.array(attachment).max(EMAIL_LIMITS.attachments).optional(),
    scheduled_at: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time such as 2026-11-21T10:00:00Z' }).optional(),
  })
  .superRefine((value, ctx) => {
    bodyRules(value, ctx);
    const total = (value.attachments ?? []).reduce((sum, a) => sum + Buffer.from(a.content, 'base64').length, 0);
    if (total > EMAIL_LIMITS.attachmentBytes) ctx.addIssue({ code: 'custom', path: ['attachments'], message: `attachments may be at most ${EMAIL_LIMITS.attachmentBytes} bytes together` });
  });

type EmailBody = z.infer<typeof batchEmailBody>;
type SendEmailBody = z.infer<typeof emailBody>;

/** A parsed batch item (or the common part of `POST /emails`) as the accept path takes it. */
export function toEmailInput(body: EmailBody): EmailRequest {
  // Each shape written out whole: a spread followed by more properties costs V8 microseconds per
  // object (docs/benchmarks.md), and this runs for every email of a batch.
  // Without one, the template's (template-content.ts); bodyRules saw to it that a template is named.
  const from = body.from ?? '';
  const cc = body.cc ?? [];
  const bcc = body.bcc ?? [];
  const replyTo = body.reply_to ?? [];
  const headers = body.headers ?? {};
  const tags = body.tags ?? [];
  const tracking = body.tracking ?? {};
  if (body.template_id !== undefined) {
    return { from, to: body.to, cc, bcc, replyTo, headers, tags, tracking, template: { templateId: body.template_id, variables: body.variables ?? {} } };
  }
  if (body.template !== undefined) {
    return { from, to: body.to, cc, bcc, replyTo, headers, tags, tracking, template: { templateId: body.template.id, variables: body.template.variables ?? {}, form: 'template' } };
  }
  // bodyRules saw to it: without a template, subject is given.
  return { from, to: body.to, cc, bcc, replyTo, headers, tags, tracking, subject: body.subject ?? '', html: body.html, text: body.text } satisfies EmailInput;
}

const toAttachment = (attachment: NonNullable<SendEmailBody['attachments']>[number]): AttachmentInput => ({
  filename: attachment.filename,
  content: Buffer.from(attachment.content, 'base64'),
  contentType: attachment.content_type ?? 'application/octet-stream',
  contentId: attachment.content_id,
});

/** A parsed `POST /emails` body and its Idempotency-Key header. */
export function toSendEmailInput(body: SendEmailBody, idempotencyKey: string | undefined): EmailRequest<SendEmailInput> {
  // The added fields first: properties after a spread cost V8 microseconds per object.
  return {
    attachments: (body.attachments ?? []).map(toAttachment),
    scheduledAt: body.scheduled_at === undefined ? undefined : new Date(body.scheduled_at),
    idempotencyKey,
    ...toEmailInput(body),
  };
}

/** The Idempotency-Key header: 1 to 255 characters when given. */
export function idempotencyKeyFrom(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (header.length === 0 || header.length > 255) throw validationError('Idempotency-Key: must be 1 to 255 characters');
  return header;
}
