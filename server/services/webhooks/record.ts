import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { column, columnNames, perDatabase, prepareSql, recordsetOf, sqlNamed, tableName } from '@/db/raw-sql';
import { webhookAttempts, webhookDeliveries, webhooks } from '@/db/schema';
import type { Deps } from '../../deps';
import { unclaimedByInput } from '../shared/claims/lease';
import { groupCommitter } from '../shared/group-commit';
import { DAY_MS } from '../shared/time';
import type { AttemptResult } from './send';
import type { AttemptTrigger, DeliveryStatus } from '../../vocabulary/webhook-statuses';

/** One attempt to store, with what it changes on its delivery. */
export interface AttemptOutcome {
  attemptId: string;
  deliveryId: string;
  webhookId: string;
  /** The worker holding the delivery's claim (null: a replay or ping, made without one). */
  worker: string | null;
  trigger: AttemptTrigger;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  result: AttemptResult;
  at: Date;
}

/** An endpoint whose deliveries have all failed for a day and whose owner was not told yet. */
export interface FailingWebhook {
  id: string;
  failingSince: Date;
}

const ATTEMPT = ['id', 'deliveryId', 'webhookId', 'trigger', 'signedAt', 'succeeded', 'responseStatus', 'durationMs', 'error', 'responseExcerpt', 'attemptedAt'] as const;
const DELIVERY = ['id', 'status', 'nextAttemptAt', 'responseStatus', 'lastError', 'updatedAt', 'claimedBy'] as const;

// Every attempt of a batch in one statement: the delivery's state (its claim ended if the writer
// still holds it), the attempt's record, and each endpoint's failing streak, which is written only
// when it changes (a healthy endpoint's row is not rewritten on every delivery). Named: planned once
// per connection (planning it cost about what running it does); every table is reached by its key.
const writeOn = perDatabase((db: Db) =>
  prepareSql<{ id: string; kind: 'delivery' | 'failing'; failingSince: string | null }>(
    db,
    'record_webhook_attempts',
    sql`with input as (
        select * from ${recordsetOf('deliveries', 'o', webhookDeliveries, DELIVERY)}
      ), updated as (
        update ${tableName(webhookDeliveries, 'd')} set ${column(webhookDeliveries, 'status')} = o.${column(webhookDeliveries, 'status')},
          ${column(webhookDeliveries, 'attempts')} = ${column(webhookDeliveries, 'attempts', 'd')} + 1,
          ${column(webhookDeliveries, 'nextAttemptAt')} = o.${column(webhookDeliveries, 'nextAttemptAt')},
          ${column(webhookDeliveries, 'responseStatus')} = o.${column(webhookDeliveries, 'responseStatus')},
          ${column(webhookDeliveries, 'lastError')} = o.${column(webhookDeliveries, 'lastError')},
          ${column(webhookDeliveries, 'updatedAt')} = o.${column(webhookDeliveries, 'updatedAt')},
          ${unclaimedByInput(webhookDeliveries, 'd', sql`o.${column(webhookDeliveries, 'claimedBy')}`)}
        from input o where ${column(webhookDeliveries, 'id', 'd')} = o.${column(webhookDeliveries, 'id')}
          and ${column(webhookDeliveries, 'id', 'd')} = any(${sql.placeholder('ids')}::uuid[])
        returning ${column(webhookDeliveries, 'id', 'd')}
      ), logged as (
        insert into ${tableName(webhookAttempts)} (${columnNames(webhookAttempts, ATTEMPT)})
        select ${columnNames(webhookAttempts, ATTEMPT)} from ${recordsetOf('attempts', 'a', webhookAttempts, ATTEMPT)}
        where ${column(webhookAttempts, 'deliveryId', 'a')} in (select id from updated)
      ), health as (
        select * from json_to_recordset(${sql.placeholder('health')}::text::json) as h(webhook_id uuid, reset boolean, failing_since timestamptz)
      ), failing as (
        select ${column(webhooks, 'id', 'w')} as id, ${column(webhooks, 'failingSince', 'w')} as failing_since from ${tableName(webhooks, 'w')} join health h on h.webhook_id = ${column(webhooks, 'id', 'w')}
        where not h.reset and ${column(webhooks, 'failureNotifiedAt', 'w')} is null and ${column(webhooks, 'failingSince', 'w')} <= ${sql.placeholder('cutoff')}::timestamptz
      ), marked as (
        update ${tableName(webhooks, 'w')} set
          ${column(webhooks, 'failingSince')} = case when h.reset then h.failing_since else coalesce(${column(webhooks, 'failingSince', 'w')}, h.failing_since) end,
          ${column(webhooks, 'failureNotifiedAt')} = case when h.reset then null else ${column(webhooks, 'failureNotifiedAt', 'w')} end
        from health h where ${column(webhooks, 'id', 'w')} = h.webhook_id
          and (case when h.reset then ${column(webhooks, 'failingSince', 'w')} is distinct from h.failing_since or ${column(webhooks, 'failureNotifiedAt', 'w')} is not null
               else ${column(webhooks, 'failingSince', 'w')} is null end)
      )
      select id, 'delivery' as kind, null as "failingSince" from updated
      union all select id, 'failing', failing_since::text from failing`,
  ),
);

/**
 * Each endpoint's failing streak after this batch: reset when an attempt succeeded (to the first
 * failure after the last success, or none), else started at the first failure if none is running.
 */
function healthOf(outcomes: AttemptOutcome[]) {
  const byWebhook = new Map<string, AttemptOutcome[]>();
  for (const o of outcomes) byWebhook.set(o.webhookId, [...(byWebhook.get(o.webhookId) ?? []), o]);
  // One order for every writer, so two batches touching the same endpoints take their locks alike.
  return [...byWebhook.keys()].sort().map((webhookId) => {
    const list = byWebhook.get(webhookId)!.sort((a, b) => a.at.getTime() - b.at.getTime());
    const lastSuccess = list.findLastIndex((o) => o.result.succeeded);
    const firstFailureAfter = list.slice(lastSuccess + 1)[0];
    return { webhook_id: webhookId, reset: lastSuccess >= 0, failing_since: firstFailureAfter?.at.toISOString() ?? null };
  });
}

async function writeAttempts(db: Db, outcomes: AttemptOutcome[]): Promise<{ written: Set<string>; failing: FailingWebhook[] }> {
  const at = outcomes.reduce((latest, o) => (o.at > latest ? o.at : latest), outcomes[0]!.at);
  const rows = await writeOn(db).execute({
    ids: outcomes.map((o) => o.deliveryId),
    deliveries: outcomes.map((o) =>
      sqlNamed(webhookDeliveries, {
        id: o.deliveryId,
        status: o.status,
        nextAttemptAt: o.nextAttemptAt,
        responseStatus: o.result.responseStatus,
        lastError: o.result.error,
        updatedAt: o.at,
        claimedBy: o.worker,
      }),
    ),
    attempts: outcomes.map((o) =>
      sqlNamed(webhookAttempts, {
        id: o.attemptId,
        deliveryId: o.deliveryId,
        webhookId: o.webhookId,
        trigger: o.trigger,
        signedAt: o.result.signedAt,
        succeeded: o.result.succeeded,
        responseStatus: o.result.responseStatus,
        durationMs: o.result.durationMs,
        error: o.result.error,
        responseExcerpt: o.result.responseExcerpt,
        attemptedAt: o.at,
      }),
    ),
    health: JSON.stringify(healthOf(outcomes)),
    cutoff: new Date(at.getTime() - DAY_MS).toISOString(),
  });
  return {
    written: new Set(rows.filter((row) => row.kind === 'delivery').map((row) => row.id)),
    failing: rows.filter((row) => row.kind === 'failing').map((row) => ({ id: row.id, failingSince: new Date(row.failingSince!) })),
  };
}

const writeInGroups = groupCommitter(async (db: Db, outcomes: AttemptOutcome[]) => {
  const { written, failing } = await writeAttempts(db, outcomes);
  return outcomes.map((o) => ({ written: written.has(o.deliveryId), failing: failing.filter((f) => f.id === o.webhookId) }));
});

/**
 * Stores an attempt with others finishing at the same time (group commit), retried while the
 * database is away: the request was made, so what it got must not be lost. False when the
 * delivery is gone (its endpoint was deleted meanwhile). Answers the endpoints found failing for a day.
 */
export function recordAttempt(deps: Pick<Deps, 'db' | 'claims'>, outcome: AttemptOutcome): Promise<{ written: boolean; failing: FailingWebhook[] }> {
  return deps.claims.untilRecorded(() => writeInGroups(deps.db, outcome));
}
