import { and, desc, eq, gte, isNull } from 'drizzle-orm';
import { auditEvents } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { MINUTE_MS } from '../shared/time';
import { recordAudit, type AuditActor, type AuditEntry } from './record';

/**
 * How long after one batch the next one of the same operation may come and still be counted in
 * its entry: the dashboard's import sends a file's rows 1,000 at a time, one request after the
 * other, each well within this.
 */
export const BULK_RUN_GAP_MS = MINUTE_MS;

const actorIs = (actor: AuditActor) => {
  switch (actor.kind) {
    case 'user':
      return eq(auditEvents.actorId, actor.userId);
    case 'api_key':
      return eq(auditEvents.actorId, actor.keyId);
    case 'operator':
    case 'billing':
      return isNull(auditEvents.actorId);
  }
};

/**
 * Records one batch of a bulk operation (a contact import, a batch delete, a suppression import)
 * as one entry of counts. A run of batches by the same actor on the same target, each within
 * BULK_RUN_GAP_MS of the last, is one operation and one entry: the counts add up (`batches` says
 * how many requests it took) and its time is the last batch's. An import of 10,000 contacts is
 * one entry, not ten, let alone 10,000.
 */
export async function recordBulkAudit(tx: Db, deps: Pick<Deps, 'clock'>, entry: AuditEntry & { counts: Record<string, number> }): Promise<void> {
  const now = deps.clock.now();
  const [run] = await tx
    .select({ id: auditEvents.id, details: auditEvents.details })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.organizationId, entry.organizationId),
        gte(auditEvents.occurredAt, new Date(now.getTime() - BULK_RUN_GAP_MS)),
        eq(auditEvents.action, entry.action),
        eq(auditEvents.targetId, entry.target.id),
        eq(auditEvents.actorKind, entry.by.actor.kind),
        actorIs(entry.by.actor),
      ),
    )
    .orderBy(desc(auditEvents.occurredAt), desc(auditEvents.id))
    .limit(1)
    .for('update');
  if (!run) {
    await recordAudit(tx, deps, { ...entry, details: { ...entry.details, ...entry.counts, batches: 1 } });
    return;
  }
  const details: Record<string, unknown> = { ...run.details, ...entry.details };
  for (const [name, count] of Object.entries(entry.counts)) details[name] = Number(run.details[name] ?? 0) + count;
  details.batches = Number(run.details.batches ?? 1) + 1;
  await tx.update(auditEvents).set({ occurredAt: now, details }).where(eq(auditEvents.id, run.id));
}
