import { and, desc, eq, type SQL } from 'drizzle-orm';
import { events, webhookAttempts, webhookDeliveries } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import { fetchPage, type Page } from '../shared/pagination';
import type { Principal } from '../shared/principal';
import { ownWebhook } from './crud';
import { eventVisibleIn } from './mode-secrets';
import { payloadOf } from './send';
import type { DeliveryStatus } from '../../vocabulary/webhook-statuses';
import { attemptView, deliveryView, type AttemptView, type DeliveryView } from './view';

/** An endpoint's deliveries, newest first, in cursor pages, optionally of one status; a test principal's of test-mode events only. */
export async function listDeliveries(
  deps: Pick<Deps, 'db'>,
  principal: Principal,
  webhookId: string,
  query: { limit: number; cursor?: string; status?: DeliveryStatus },
): Promise<Page<DeliveryView>> {
  const webhook = await ownWebhook(deps.db, principal, webhookId);
  const visible = eventVisibleIn(principal.mode);
  const page = await fetchPage(webhookDeliveries.id, query, async ({ where, orderBy, limit }) => {
    const conditions: Array<SQL | undefined> = [eq(webhookDeliveries.webhookId, webhook.id), where];
    if (query.status) conditions.push(eq(webhookDeliveries.status, query.status));
    if (!visible) return deps.db.select().from(webhookDeliveries).where(and(...conditions)).orderBy(orderBy).limit(limit);
    const rows = await deps.db
      .select({ delivery: webhookDeliveries })
      .from(webhookDeliveries)
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(and(...conditions, visible))
      .orderBy(orderBy)
      .limit(limit);
    return rows.map((row) => row.delivery);
  });
  return { data: page.data.map(deliveryView), nextCursor: page.nextCursor };
}

export interface DeliveryDetail extends DeliveryView {
  /** The body every attempt sent (each signed afresh with its own timestamp). */
  payload: string;
  /** Every attempt, newest first. */
  attemptsMade: AttemptView[];
}

/** One delivery with the request body it sends and each attempt's answer; to a test principal, a live event's is not found. */
export async function getDelivery(deps: Pick<Deps, 'db'>, principal: Principal, webhookId: string, deliveryId: string): Promise<DeliveryDetail> {
  const webhook = await ownWebhook(deps.db, principal, webhookId);
  const [found] = await deps.db
    .select({ delivery: webhookDeliveries, event: events })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhook.id), eventVisibleIn(principal.mode)));
  if (!found) throw notFound('Webhook delivery');
  const attempts = await deps.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId)).orderBy(desc(webhookAttempts.id));
  return { ...deliveryView(found.delivery), payload: payloadOf(found.event), attemptsMade: attempts.map(attemptView) };
}
