import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { column, perDatabase, prepareSql, tableName } from '@/db/raw-sql';
import { events, webhookDeliveries, webhooks } from '@/db/schema';
import type { Deps } from '../../deps';
import { claimable, claimedBy, placeholderClaimant } from '../shared/claims/lease';
import type { ClaimedDelivery } from './delivery-types';

/*
 * How a delivery is claimed for its next attempt: through the one claim-and-lease mechanism
 * (services/shared/claims), by one atomic update, so an attempt is made once even when the
 * runner, an Inngest function and another process reach it together. The claim also reads what
 * the attempt needs (the endpoint's URL and current secrets, the event) in the same round trip.
 * Due-ness is business time (the injectable clock); the lease is database time.
 */

const own = (key: 'id' | 'webhookId' | 'status' | 'nextAttemptAt') => column(webhookDeliveries, key, 'webhook_deliveries');
const claim = claimedBy(placeholderClaimant);
/** The claimant's values read in sub-selects, so the plan is made without them (below). */
const hiddenClaimant = {
  worker: sql`(select ${placeholderClaimant.worker}::uuid)`,
  takeover: sql`(select ${placeholderClaimant.takeover}::boolean)`,
};

/** A delivery whose next attempt is due at `now` (a timestamptz): what the sweep claims, and /metrics counts as due work. */
export const deliveryIsDue = (now: SQL) => sql`${own('status')} = 'pending' and ${own('nextAttemptAt')} is not null and ${own('nextAttemptAt')} <= ${now}`;

// Named, so Postgres plans it once per connection. Every value is read in a sub-select: a plan
// made for the values (a takeover of false folded away) looks cheaper than the generic one, and Postgres would otherwise
// plan it again on every call (a millisecond each, more than the claim itself for a few rows); the
// generic plan walks the due index in order, as every custom one did.
function claimStatement(db: Db, name: string, which: SQL) {
  return prepareSql<ClaimedDelivery>(
    db,
    name,
    sql`with picked as (
        select ${own('id')} from ${tableName(webhookDeliveries)}
        where ${which} and ${deliveryIsDue(sql`(select ${sql.placeholder('now')}::timestamptz)`)}
          and ${claimable(webhookDeliveries, hiddenClaimant)}
        order by ${own('nextAttemptAt')} limit (select ${sql.placeholder('limit')}::int) for update skip locked
      ), claimed as (
        update ${tableName(webhookDeliveries)} set ${column(webhookDeliveries, 'claimedBy')} = ${claim.claimedBy}, ${column(webhookDeliveries, 'claimedUntil')} = ${claim.claimedUntil}
        where ${own('id')} in (select id from picked)
        returning ${own('id')}, ${own('webhookId')}, ${column(webhookDeliveries, 'organizationId', 'webhook_deliveries')},
          ${column(webhookDeliveries, 'attempts', 'webhook_deliveries')}, ${column(webhookDeliveries, 'eventId', 'webhook_deliveries')}
      )
      select c.id, c.webhook_id as "webhookId", c.organization_id as "organizationId", c.attempts, ${column(webhooks, 'url', 'w')},
        ${column(webhooks, 'secretSealed', 'w')} as "secretSealed", ${column(webhooks, 'testSecretSealed', 'w')} as "testSecretSealed", c.event_id as "eventId", ${column(events, 'type', 'e')} as "eventType",
        ${column(events, 'createdAt', 'e')} as "eventCreatedAt", ${column(events, 'data', 'e')} as "eventData"
      from claimed c join ${tableName(webhooks, 'w')} on ${column(webhooks, 'id', 'w')} = c.webhook_id
        join ${tableName(events, 'e')} on ${column(events, 'id', 'e')} = c.event_id`,
  );
}

const claimOneOn = perDatabase((db: Db) => claimStatement(db, 'claim_webhook_delivery', sql`${own('id')} = ${sql.placeholder('id')}::uuid`));
// Oldest due first, none to an endpoint that already has its fill in this process.
const claimDueOn = perDatabase((db: Db) => claimStatement(db, 'claim_due_webhook_deliveries', sql`not (${own('webhookId')} = any((select ${sql.placeholder('busy')}::uuid[])::uuid[]))`));

// Raw SQL hands timestamps back as text on some drivers: one shape for the caller. The driver's own
// fresh row is set in place (a copy with a property after the spread costs V8 microseconds a row).
const normalized = (row: ClaimedDelivery): ClaimedDelivery => {
  row.eventCreatedAt = new Date(row.eventCreatedAt);
  return row;
};

/** Claims this delivery if its attempt is due and nobody holds it. */
export async function claimDelivery(deps: Deps, id: string): Promise<ClaimedDelivery | undefined> {
  const [row] = await claimOneOn(deps.db).execute({ id, limit: 1, now: deps.clock.now().toISOString(), ...deps.claims.claimant });
  if (row) deps.claims.hold(webhookDeliveries, [row.id]);
  return row && normalized(row);
}

/** Claims up to `limit` due deliveries, oldest due first, none to an endpoint in `busy`. */
export async function claimDueDeliveries(deps: Deps, limit: number, busy: string[]): Promise<ClaimedDelivery[]> {
  const rows = await claimDueOn(deps.db).execute({ limit, busy, now: deps.clock.now().toISOString(), ...deps.claims.claimant });
  deps.claims.hold(
    webhookDeliveries,
    rows.map((row) => row.id),
  );
  return rows.map(normalized);
}

/** Due deliveries, oldest first, for a durable function to fan out (each is then claimed by id). */
export async function dueDeliveries(deps: Pick<Deps, 'db' | 'clock'>, limit = 500): Promise<Array<{ id: string; webhookId: string; attempts: number }>> {
  return deps.db
    .select({ id: webhookDeliveries.id, webhookId: webhookDeliveries.webhookId, attempts: webhookDeliveries.attempts })
    .from(webhookDeliveries)
    .where(deliveryIsDue(sql`${deps.clock.now().toISOString()}::timestamptz`))
    .orderBy(webhookDeliveries.nextAttemptAt)
    .limit(limit);
}
