import { z } from 'zod';
import { ERROR_STATUS } from '../../errors';
import { SUPPRESSION_REASONS } from '../../vocabulary/suppression-reasons';
import { RECIPIENT_OUTCOMES, WARNING_CODES } from '../../services/emails/preflight/verdict';
import { isoDate } from '../shared';

const limitUse = {
  limit: z.number().int(),
  used: z.number().int().describe('Recipients counted so far (today, this month, or against the allowance)'),
  requested: z.number().int().describe('Recipients this email would count: those it is sent to (suppressed ones are not counted)'),
  left: z.number().int().describe('What is left after this email (after nothing when it is refused)'),
};

export const preflightVerdict = z
  .object({
    accepted: z.boolean().describe('Whether POST /emails would accept the email now'),
    status: z.number().int().describe('The HTTP status POST /emails would answer: 200, or the refusal\'s'),
    refusal: z
      .object({ error: z.string(), code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS]) })
      .nullable()
      .describe('The error body POST /emails would answer with, word for word'),
    replayOf: z.uuid().nullable().describe('With an Idempotency-Key used within 24 hours: the email POST /emails would answer with, sending nothing'),
    scheduledAt: isoDate.nullable(),
    recipients: z
      .array(
        z.object({
          email: z.string(),
          field: z.enum(['to', 'cc', 'bcc']),
          outcome: z.enum(RECIPIENT_OUTCOMES).describe('send; suppressed (on the suppression list: recorded, not sent); undeliverable (live mode: its domain takes no mail, so it would fail)'),
          suppression: z.object({ id: z.uuid(), reason: z.enum(SUPPRESSION_REASONS), emailId: z.uuid().nullable(), createdAt: isoDate }).nullable(),
        }),
      )
      .nullable()
      .describe('Null when a refusal came before the recipients were checked'),
    limits: z
      .object({
        daily: z.object({ ...limitUse, resetsAt: isoDate }),
        monthly: z.object({ ...limitUse, quota: z.number().int(), overage: z.boolean().describe('Metered overage on: the limit is the quota plus the overage headroom'), resetsAt: isoDate }),
        listAllowance: z.object(limitUse).nullable().describe('The list-send allowance before review; null once the account is reviewed'),
      })
      .nullable()
      .describe('Null in test mode (nothing is counted) and when a refusal came before the limits'),
    rendered: z.object({ subject: z.string(), html: z.string().nullable(), text: z.string().nullable() }).nullable().describe('What the template renders to; null for an email that gives its own content'),
    warnings: z.array(z.object({ code: z.enum(WARNING_CODES), message: z.string().describe('What was found, why it matters, and how to fix it') })),
  })
  .meta({ id: 'PreflightVerdict' });
