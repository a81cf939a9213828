import { z } from 'zod';
import { API_KEY_MODES } from '../../vocabulary/api-keys';
import { EMAIL_STATUSES } from '../../vocabulary/email-statuses';
import { EMAIL_EVENT_TYPES } from '../../vocabulary/event-types';
import { RETAINED_PARTS } from '../../services/privacy/message-retention';
import { DATA_CATEGORIES } from '../../services/privacy/record-categories';
import { retentionTerms, serviceHost } from '../privacy';
import { isoDate } from '../shared';

/** GET /emails/{id}/processing-record: what was processed for one message, where, by whom, until when (docs/privacy.md). */
export const processingRecord = z
  .object({
    emailId: z.uuid(),
    mode: z.enum(API_KEY_MODES),
    status: z.enum(EMAIL_STATUSES),
    createdAt: isoDate,
    region: z.string().describe('Where the message is processed and stored: EU'),
    parties: z.object({
      controller: z.object({ organizationId: z.uuid(), name: z.string() }).describe('Your organization: it decides what is sent, to whom and why'),
      processor: z.object({ name: z.string(), baseUrl: z.string() }).describe('This service, processing on your behalf'),
      receivingServers: z
        .array(z.object({ host: z.string(), recipients: z.array(z.string()), lastSeenAt: isoDate }))
        .describe("The recipients' mail servers the message was handed to, as its delivery events recorded them"),
    }),
    hosts: z.array(serviceHost).describe('Every host that handled the message: this service, its mail host, the relay if configured, and the receiving servers'),
    categories: z
      .array(
        z.object({
          category: z.enum(DATA_CATEGORIES),
          description: z.string(),
          count: z.number().int(),
          held: z.boolean().describe('Still stored now'),
        }),
      )
      .describe('The personal data the message carries, by category'),
    events: z
      .array(
        z.object({
          type: z.enum(EMAIL_EVENT_TYPES),
          count: z.number().int(),
          withClientData: z.number().int().describe("How many kept the client's IP network (truncated) or user agent: opens and clicks"),
        }),
      )
      .describe("The message's history by event type, in the order each first happened"),
    attachments: z.array(
      z.object({ id: z.uuid(), filename: z.string(), contentType: z.string(), size: z.number().int(), contentDeleteAt: isoDate, contentDeleted: z.boolean() }),
    ),
    tracking: z.object({ opens: z.boolean(), clicks: z.boolean() }).describe('Whether opens and clicks were tracked for this message'),
    retention: z.object({
      ...retentionTerms,
      parts: z
        .array(
          z.object({
            part: z.enum(RETAINED_PARTS),
            description: z.string(),
            deleteAt: isoDate.nullable().describe('When it is (or was) deleted; null when kept until removed'),
            deleted: z.boolean(),
          }),
        )
        .describe('When each part is deleted, from the email’s time and your plan’s retention'),
    }),
  })
  .meta({ id: 'ProcessingRecord' });
