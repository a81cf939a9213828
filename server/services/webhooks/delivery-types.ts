import type { DeliveryStatus } from '../../vocabulary/webhook-statuses';

// What the webhook dispatcher holds, apart from the modules that claim and attempt, so `Deps` can
// name the process's dispatcher (deps.dispatchers.webhooks) without importing them (they import `Deps`).

/** A delivery as its claim returns it: what one attempt needs, read in the claim's round trip. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  organizationId: string;
  attempts: number;
  url: string;
  secretSealed: string;
  testSecretSealed: string | null;
  eventId: string;
  eventType: string;
  eventCreatedAt: Date;
  eventData: Record<string, unknown>;
}

export interface AttemptReport {
  outcome: DeliveryStatus | 'skipped';
  /** When the next attempt is due, if another one is scheduled (what a durable function sleeps until). */
  nextAttemptAt: string | null;
}
