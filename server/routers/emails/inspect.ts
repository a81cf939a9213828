import { z } from 'zod';
import { RAW_SOURCE_SHOWN_BYTES, type RawSource } from '../../services/emails/message/raw-source';
import { SENDER_KINDS } from '../../services/emails/sent-by';
import { isoDate } from '../shared';

/** The answers of the dashboard's two looks into an email beside its page: who sent it, and its raw source. */

export const sentBy = z.object({
  kind: z.enum(SENDER_KINDS),
  key: z.object({ id: z.uuid(), name: z.string(), revoked: z.boolean() }).nullable(),
  broadcast: z.object({ id: z.uuid(), name: z.string() }).nullable(),
});

export const rawSource = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    /** The first RAW_SOURCE_SHOWN_BYTES of the message; `truncated` when there is more (the .eml download has it all). */
    source: z.string(),
    truncated: z.boolean(),
    bytes: z.number().int(),
    date: isoDate,
    sent: z.boolean(),
    expiredAttachments: z.array(z.string()),
  }),
  z.object({ available: z.literal(false), reason: z.string() }),
]);

export function rawSourceAnswer(raw: RawSource): z.infer<typeof rawSource> {
  if (!raw.available) return raw;
  const truncated = raw.message.length > RAW_SOURCE_SHOWN_BYTES;
  return {
    available: true,
    // A whole message is 7-bit (nodemailer encodes every part); cut, it may end inside a UTF-8 sequence, which decodes as U+FFFD.
    source: (truncated ? raw.message.subarray(0, RAW_SOURCE_SHOWN_BYTES) : raw.message).toString('utf8'),
    truncated,
    bytes: raw.message.length,
    date: raw.date.toISOString(),
    sent: raw.sent,
    expiredAttachments: raw.expiredAttachments,
  };
}
