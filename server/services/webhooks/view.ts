import type { webhookAttempts, webhookDeliveries, webhooks } from '@/db/schema';
import type { AttemptTrigger, DeliveryStatus } from '../../vocabulary/webhook-statuses';

type WebhookRow = typeof webhooks.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type AttemptRow = typeof webhookAttempts.$inferSelect;

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  createdAt: string;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
}

export interface AttemptView {
  id: string;
  trigger: AttemptTrigger;
  succeeded: boolean;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
  attemptedAt: string;
}

export const webhookView = (row: WebhookRow): WebhookView => ({ id: row.id, url: row.url, events: row.events, createdAt: row.createdAt.toISOString() });

export const deliveryView = (row: DeliveryRow): DeliveryView => ({
  id: row.id,
  eventId: row.eventId,
  eventType: row.eventType,
  status: row.status,
  attempts: row.attempts,
  responseStatus: row.responseStatus,
  lastError: row.lastError,
  createdAt: row.createdAt.toISOString(),
  nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
});

export const attemptView = (row: AttemptRow): AttemptView => ({
  id: row.id,
  trigger: row.trigger,
  succeeded: row.succeeded,
  responseStatus: row.responseStatus,
  durationMs: row.durationMs,
  error: row.error,
  responseExcerpt: row.responseExcerpt,
  attemptedAt: row.attemptedAt.toISOString(),
});
