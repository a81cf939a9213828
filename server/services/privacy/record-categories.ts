import type { emails } from '@/db/schema';
import type { EmailEventType } from '../../vocabulary/event-types';
import type { HistoryEntry } from '../emails/history';

/** The kinds of personal data one message carries, in the order the record lists them. */
export const DATA_CATEGORIES = [
  'sender_address',
  'recipient_addresses',
  'subject',
  'bodies',
  'attachments',
  'headers',
  'tags',
  'delivery_events',
  'tracking_events',
] as const;
export type DataCategory = (typeof DATA_CATEGORIES)[number];

export interface CategoryView {
  category: DataCategory;
  description: string;
  /** How many items of it the message has (recipients, body parts, headers, events...). */
  count: number;
  /** Whether it is still stored now (an attachment's content goes before the message). */
  held: boolean;
}

export interface AttachmentListing {
  filename: string;
  size: number;
  contentHeld: boolean;
}

type MessageRow = Pick<typeof emails.$inferSelect, 'to' | 'cc' | 'bcc' | 'replyTo' | 'recipientAddresses' | 'subject' | 'html' | 'text' | 'headers' | 'tags'>;

export const TRACKING_EVENT_TYPES: readonly EmailEventType[] = ['email.opened', 'email.clicked'];
const isTracking = (event: HistoryEntry) => TRACKING_EVENT_TYPES.includes(event.type);

const hasClientData = (event: HistoryEntry) => typeof event.data.ip === 'string' || typeof event.data.userAgent === 'string';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** What one message holds, by category: counts and plain sentences, not the data itself (GET /emails/{id} has that). */
export function categoriesOf(row: MessageRow, attachments: AttachmentListing[], history: HistoryEntry[]): CategoryView[] {
  const parts = [row.html !== null ? 'HTML' : null, row.text !== null ? 'text' : null].filter((part) => part !== null);
  const headerNames = Object.keys(row.headers);
  const tracking = history.filter(isTracking);
  const delivery = history.filter((event) => !isTracking(event));
  const withClient = tracking.filter(hasClientData).length;
  const kept = attachments.filter((attachment) => attachment.contentHeld).length;
  return [
    { category: 'sender_address', description: 'The From address (with its display name) and any Reply-To addresses', count: 1 + row.replyTo.length, held: true },
    {
      category: 'recipient_addresses',
      description: `To ${row.to.length}, Cc ${row.cc.length}, Bcc ${row.bcc.length}, with each recipient's delivery state`,
      count: row.recipientAddresses.length,
      held: true,
    },
    { category: 'subject', description: 'The subject line', count: 1, held: true },
    { category: 'bodies', description: parts.length > 0 ? `The rendered ${parts.join(' and ')} body` : 'No body is stored', count: parts.length, held: parts.length > 0 },
    {
      category: 'attachments',
      description: `${plural(attachments.length, 'attachment', 'attachments')} listed by file name, size and type; content still stored for ${kept}`,
      count: attachments.length,
      held: attachments.length > 0,
    },
    { category: 'headers', description: headerNames.length > 0 ? `Custom headers: ${headerNames.join(', ')}` : 'No custom headers', count: headerNames.length, held: headerNames.length > 0 },
    { category: 'tags', description: 'Name and value pairs you attached', count: row.tags.length, held: row.tags.length > 0 },
    {
      category: 'delivery_events',
      description: 'Status changes with the receiving server, its SMTP answer and bounce or complaint reports',
      count: delivery.length,
      held: delivery.length > 0,
    },
    {
      category: 'tracking_events',
      description: `Opens and clicks; ${withClient} with the client's IP network (truncated to /24 or /48) and user agent`,
      count: tracking.length,
      held: tracking.length > 0,
    },
  ];
}

export interface EventTypeCount {
  type: EmailEventType;
  count: number;
  /** How many of them kept the client's IP network or user agent (opens and clicks). */
  withClientData: number;
}

/** The message's history by event type, in the order each type first happened. */
export function eventTypesOf(history: HistoryEntry[]): EventTypeCount[] {
  const byType = new Map<EmailEventType, EventTypeCount>();
  for (const event of history) {
    const entry = byType.get(event.type) ?? { type: event.type, count: 0, withClientData: 0 };
    entry.count += 1;
    if (hasClientData(event)) entry.withClientData += 1;
    byType.set(event.type, entry);
  }
  return [...byType.values()];
}
