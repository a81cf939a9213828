import { daysAfter, RETENTION_SWEEP_HOURS, type RetentionTerms } from './retention-terms';
import type { HistoryEntry } from '../emails/history';

/** The parts of a message that are deleted on their own schedule. */
export const RETAINED_PARTS = ['message', 'bodies', 'history', 'attachment_contents', 'event_log', 'webhook_deliveries', 'suppressions'] as const;
export type RetainedPart = (typeof RETAINED_PARTS)[number];

export interface PartRetention {
  part: RetainedPart;
  description: string;
  /** When it is (or was) deleted; null when it is kept until someone removes it. */
  deleteAt: string | null;
  /** Whether it is already gone. */
  deleted: boolean;
}

export interface AttachmentRetention {
  /** When the content goes (the email keeps listing it). */
  expiresAt: Date;
  contentHeld: boolean;
}

const sweep = `the hourly retention sweep deletes it within ${RETENTION_SWEEP_HOURS} hour of that time`;

/**
 * When each part of one message is deleted, computed as the retention sweep will act: the record,
 * bodies and history together at createdAt + the plan's log retention; attachment contents at
 * their own expiry; each event-log copy (and its webhook deliveries) at its own time + the log
 * retention; suppression entries caused by the message stay until removed.
 */
export function messageRetention(
  createdAt: Date,
  terms: RetentionTerms,
  attachments: AttachmentRetention[],
  history: HistoryEntry[],
  suppressionsCaused: number,
  now: Date,
): PartRetention[] {
  const messageGoes = daysAfter(createdAt, terms.logRetentionDays).toISOString();
  const days = `${terms.logRetentionDays} days (${terms.plan.label})`;
  const parts: PartRetention[] = [
    { part: 'message', description: `Sender, recipients, subject, headers, tags and delivery states: kept ${days} after the message was accepted; ${sweep}`, deleteAt: messageGoes, deleted: false },
    { part: 'bodies', description: `The rendered HTML and text bodies: deleted with the message, not archived`, deleteAt: messageGoes, deleted: false },
    { part: 'history', description: 'The message’s event history, including tracking data: deleted with the message', deleteAt: messageGoes, deleted: false },
  ];
  if (attachments.length > 0) {
    const last = attachments.reduce((latest, attachment) => (attachment.expiresAt > latest ? attachment.expiresAt : latest), attachments[0]!.expiresAt);
    parts.push({
      part: 'attachment_contents',
      description: `Attachment contents: kept ${terms.attachmentRetentionDays} days at every plan; the message still lists name, size and type afterwards, and a download answers 410`,
      deleteAt: last.toISOString(),
      deleted: attachments.every((attachment) => !attachment.contentHeld) || last <= now,
    });
  }
  const lastEvent = history.reduce<Date | null>((latest, event) => (!latest || event.createdAt > latest ? event.createdAt : latest), null);
  const logGoes = lastEvent ? daysAfter(lastEvent, terms.logRetentionDays).toISOString() : null;
  parts.push(
    {
      part: 'event_log',
      description: `The copies of its events in your event log (GET /events): each kept ${days} after the event itself, so a late open outlives the message; this is when the last one goes`,
      deleteAt: logGoes,
      deleted: false,
    },
    { part: 'webhook_deliveries', description: 'The webhook deliveries of those events, with their attempts: deleted with the event they carry', deleteAt: logGoes, deleted: false },
    {
      part: 'suppressions',
      description:
        suppressionsCaused > 0
          ? `${suppressionsCaused} suppression ${suppressionsCaused === 1 ? 'entry' : 'entries'} recorded from this message’s bounces or complaints: kept until removed (DELETE /suppressions/{id})`
          : 'No suppression entry was recorded from this message',
      deleteAt: null,
      deleted: false,
    },
  );
  return parts;
}
