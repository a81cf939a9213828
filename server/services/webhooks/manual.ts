import { and, eq } from 'drizzle-orm';
import { events, webhookDeliveries } from '@/db/schema';
import type { Deps } from '../../deps';
import { conflict, notFound } from '../../errors';
import { newId } from '../../ids';
import type { EventType } from '../../vocabulary/event-types';
import type { Principal } from '../shared/principal';
import { alertOwnerOfFailingWebhook } from './alerts';
import { ownWebhook, type WebhookRow } from './crud';
import { recordAttempt } from './record';
import { eventVisibleIn, signingSecretsOf } from './mode-secrets';
import { postEvent, type OutgoingEvent } from './send';
import { TEST_EVENT_TYPE, type AttemptTrigger, type DeliveryStatus } from '../../vocabulary/webhook-statuses';
import { attemptView, type AttemptView } from './view';

/*
 * Attempts a person asks for (a replay, a test ping): made at once, outside the retry schedule and
 * without a claim, and answered with what the endpoint said. They are recorded like every attempt.
 */

export interface ManualAttempt {
  deliveryId: string;
  status: DeliveryStatus;
  attempt: AttemptView;
}

async function attemptNow(deps: Deps, webhook: WebhookRow, deliveryId: string, event: OutgoingEvent, trigger: AttemptTrigger): Promise<ManualAttempt> {
  const result = await postEvent(deps, { url: webhook.url, secrets: await signingSecretsOf(deps, webhook, event.data) }, event);
  const at = deps.clock.now();
  const status: DeliveryStatus = result.succeeded ? 'succeeded' : 'failed';
  const attemptId = newId();
  const { written, failing } = await recordAttempt(deps, { attemptId, deliveryId, webhookId: webhook.id, worker: null, trigger, status, nextAttemptAt: null, result, at });
  if (!written) throw notFound('Webhook delivery');
  for (const found of failing) await alertOwnerOfFailingWebhook(deps, found);
  return {
    deliveryId,
    status,
    attempt: attemptView({ id: attemptId, deliveryId, webhookId: webhook.id, trigger, attemptedAt: at, ...result }),
  };
}

/**
 * Sends a delivery's event again now: the same `webhook-id`, a fresh timestamp and signatures with
 * the current secrets of the event's mode. A delivery whose retries are still scheduled is left to them (409).
 */
export async function replayDelivery(deps: Deps, principal: Principal, webhookId: string, deliveryId: string): Promise<ManualAttempt> {
  const webhook = await ownWebhook(deps.db, principal, webhookId);
  const [found] = await deps.db
    .select({ status: webhookDeliveries.status, nextAttemptAt: webhookDeliveries.nextAttemptAt, event: events })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhook.id), eventVisibleIn(principal.mode)));
  if (!found) throw notFound('Webhook delivery');
  if (found.status === 'pending') {
    throw conflict(`This delivery is still being retried${found.nextAttemptAt ? ` (next attempt at ${found.nextAttemptAt.toISOString()})` : ''}; replay it once it succeeded or failed`);
  }
  return attemptNow(deps, webhook, deliveryId, found.event, 'replay');
}

/**
 * Sends a signed `webhook.test` event to this endpoint only and answers with the outcome, so an
 * integration can be checked from the dashboard. It is kept as a delivery of the endpoint, but
 * stays out of the event log and of every other endpoint, whatever they subscribe to.
 */
export async function pingWebhook(deps: Deps, principal: Principal, webhookId: string): Promise<ManualAttempt> {
  const webhook = await ownWebhook(deps.db, principal, webhookId);
  const now = deps.clock.now();
  const event = {
    id: newId(),
    organizationId: principal.organizationId,
    type: TEST_EVENT_TYPE as EventType,
    data: { webhookId: webhook.id, mode: principal.mode, message: 'A test event sent from the webhook page or POST /webhooks/{id}/test.' },
    createdAt: now,
  };
  const deliveryId = newId();
  await deps.db.transaction(async (tx) => {
    await tx.insert(events).values(event);
    // Failed until the attempt is recorded: a ping cut short by a crash is not left pending forever.
    await tx.insert(webhookDeliveries).values({
      id: deliveryId,
      webhookId: webhook.id,
      organizationId: principal.organizationId,
      eventId: event.id,
      eventType: TEST_EVENT_TYPE,
      status: 'failed',
      lastError: 'the test ping did not finish',
      createdAt: now,
      updatedAt: now,
    });
  });
  return attemptNow(deps, webhook, deliveryId, event, 'test');
}
