import type { broadcasts } from '@/db/schema';
import type { BroadcastStatus, HoldReason } from '../../vocabulary/broadcast-statuses';

export type BroadcastRow = typeof broadcasts.$inferSelect;

export interface BroadcastCounts {
  recipients: number;
  queued: number;
  sent: number;
  delivered: number;
  bounced: number;
  complained: number;
  /** Emails opened at least once, by anyone or anything. */
  opened: number;
  /** Of those, opened at least once by a person; the rest were opened only by proxies and scanners. */
  openedHuman: number;
  openedMachine: number;
  clicked: number;
  clickedHuman: number;
  clickedMachine: number;
  unsubscribed: number;
  suppressed: number;
  skipped: number;
  canceled: number;
}

/** A broadcast as lists show it: no bodies (they may be megabytes each). */
export interface BroadcastSummary {
  id: string;
  name: string;
  audienceId: string | null;
  topicId: string | null;
  /** Only contacts whose consent was confirmed get it. */
  requireConfirmedConsent: boolean;
  from: string;
  subject: string | null;
  templateId: string | null;
  status: BroadcastStatus;
  heldReason: HoldReason | null;
  failedReason: string | null;
  scheduledAt: string | null;
  startedAt: string | null;
  sentAt: string | null;
  cancelledAt: string | null;
  counts: BroadcastCounts;
  createdAt: string;
  updatedAt: string;
}

export interface BroadcastView extends BroadcastSummary {
  replyTo: string[];
  html: string | null;
  text: string | null;
  previewText: string | null;
}

const iso = (at: Date | null) => (at ? at.toISOString() : null);

export const countsOf = (row: BroadcastRow): BroadcastCounts => ({
  recipients: row.recipients,
  queued: row.queued,
  sent: row.sent,
  delivered: row.delivered,
  bounced: row.bounced,
  complained: row.complained,
  opened: row.opened,
  openedHuman: row.openedHuman,
  openedMachine: Math.max(0, row.opened - row.openedHuman),
  clicked: row.clicked,
  clickedHuman: row.clickedHuman,
  clickedMachine: Math.max(0, row.clicked - row.clickedHuman),
  unsubscribed: row.unsubscribed,
  suppressed: row.suppressed,
  skipped: row.skipped,
  canceled: row.canceled,
});

export const broadcastSummary = (row: BroadcastRow): BroadcastSummary => ({
  id: row.id,
  name: row.name,
  audienceId: row.audienceId,
  topicId: row.topicId,
  requireConfirmedConsent: row.requireConfirmedConsent,
  from: row.from,
  subject: row.subject,
  templateId: row.templateId,
  status: row.status,
  heldReason: row.heldReason,
  failedReason: row.failedReason,
  scheduledAt: iso(row.scheduledAt),
  startedAt: iso(row.startedAt),
  sentAt: iso(row.sentAt),
  cancelledAt: iso(row.cancelledAt),
  counts: countsOf(row),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const broadcastView = (row: BroadcastRow): BroadcastView => ({ ...broadcastSummary(row), replyTo: row.replyTo, html: row.html, text: row.text, previewText: row.previewText });
