import { eq } from 'drizzle-orm';
import { webhookDeliveries } from '@/db/schema';
import type { Deps, Dispatchers } from '../../deps';
import { newId } from '../../ids';
import { Dispatcher } from '../shared/dispatcher';
import { sweepWithDispatcher, type SweepReport } from '../shared/dispatch-sweep';
import { alertOwnerOfFailingWebhook } from './alerts';
import { claimDelivery, claimDueDeliveries } from './claim';
import type { AttemptReport, ClaimedDelivery } from './delivery-types';
import { recordAttempt, type FailingWebhook } from './record';
import { nextAttemptAfter } from './schedule';
import { signingSecretsOf } from './mode-secrets';
import { postEvent } from './send';
import type { DeliveryStatus } from '../../vocabulary/webhook-statuses';

/** Deliveries in flight at once in this process, all sweeps together. */
export const WEBHOOK_CONCURRENCY = 64;
/**
 * Deliveries in flight at once to one endpoint, per process: a slow or hanging endpoint holds this
 * many slots (each at most the 10 s timeout) and every other endpoint goes on being served.
 */
export const PER_ENDPOINT = 16;

/**
 * One attempt of a claimed delivery: POST, then its outcome and the next due time, written
 * together. The endpoint's place is given up once the POST is over (`leave`): its next delivery
 * starts while this one's outcome is written, and the endpoint still never has more than its
 * share of requests in flight.
 */
async function attemptClaimed(deps: Deps, row: ClaimedDelivery, leave: () => void = () => undefined): Promise<AttemptReport> {
  let secrets: string[];
  try {
    secrets = await signingSecretsOf(deps, { id: row.webhookId, secretSealed: row.secretSealed, testSecretSealed: row.testSecretSealed }, row.eventData);
  } catch (error) {
    // Nothing was sent: the delivery is given back (a wrong ENCRYPTION_KEY is the operator's to fix).
    await deps.claims.release(webhookDeliveries, [row.id]);
    throw error;
  }
  const result = await postEvent(deps, { url: row.url, secrets }, { id: row.eventId, type: row.eventType, createdAt: row.eventCreatedAt, data: row.eventData });
  leave();
  const at = deps.clock.now();
  const attempts = row.attempts + 1;
  const nextAttemptAt = result.succeeded ? null : nextAttemptAfter(attempts, at, deps.config.webhookRetryBaseMs);
  const status: DeliveryStatus = result.succeeded ? 'succeeded' : nextAttemptAt ? 'pending' : 'failed';
  let failing: FailingWebhook[];
  try {
    ({ failing } = await recordAttempt(deps, { attemptId: newId(), deliveryId: row.id, webhookId: row.webhookId, worker: deps.claims.id, trigger: 'scheduled', status, nextAttemptAt, result, at }));
  } finally {
    // The request was made: whatever became of the write, this worker stops renewing the claim.
    deps.claims.finished(webhookDeliveries, [row.id]);
  }
  for (const webhook of failing) await alertOwnerOfFailingWebhook(deps, webhook).catch((error: unknown) => deps.log.warn({ err: error, webhookId: webhook.id }, 'could not queue the failing-webhook alert'));
  return { outcome: status, nextAttemptAt: nextAttemptAt?.toISOString() ?? null };
}

/**
 * The process's webhook dispatcher, built once with the runtime (server/runtime.ts) and handed in
 * as `deps.dispatchers.webhooks`: every sweep and durable function of the process shares its slots.
 */
export const createWebhookDispatcher = (deps: () => Deps): Dispatchers['webhooks'] =>
  new Dispatcher(
    { concurrency: WEBHOOK_CONCURRENCY, perDestination: PER_ENDPOINT },
    (row, leave) => attemptClaimed(deps(), row, leave),
    (row) => [row.webhookId],
  );

/** The attempt of one delivery, if it is due and free: what a durable function calls. */
export async function attemptDelivery(deps: Deps, id: string): Promise<AttemptReport> {
  const row = await claimDelivery(deps, id);
  if (!row) {
    const [current] = await deps.db.select({ at: webhookDeliveries.nextAttemptAt }).from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
    return { outcome: 'skipped', nextAttemptAt: current?.at && current.at > deps.clock.now() ? current.at.toISOString() : null };
  }
  const running = deps.dispatchers.webhooks.startNow(row);
  if (running) return running;
  // No slot here, or its endpoint is full: the sweeps send it once there is room.
  await deps.claims.release(webhookDeliveries, [row.id]);
  return { outcome: 'skipped', nextAttemptAt: null };
}

/** Attempts every due delivery in the process's free slots; a slow endpoint holds its own share and no more. */
export function sweepWebhookDeliveries(deps: Deps): Promise<SweepReport<DeliveryStatus>> {
  return sweepWithDispatcher({
    claims: deps.claims,
    table: webhookDeliveries,
    dispatcher: deps.dispatchers.webhooks,
    claimDue: (limit, busy) => claimDueDeliveries(deps, limit, busy),
    outcomeOf: (report) => (report.outcome === 'skipped' ? null : report.outcome),
  });
}
