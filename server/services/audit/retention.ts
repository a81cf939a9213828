import { lt } from 'drizzle-orm';
import { auditEvents } from '@/db/schema';
import type { Deps } from '../../deps';
import { DAY_MS } from '../shared/time';

/**
 * How long the audit log is kept, at every plan: a little over a year, so a yearly review (or a
 * question about last year's same month) still finds its rows.
 */
export const AUDIT_RETENTION_DAYS = 400;

/** Deletes audit rows older than the retention; run by the hourly retention sweep. */
export async function deleteExpiredAuditEvents(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - AUDIT_RETENTION_DAYS * DAY_MS);
  const deleted = await deps.db.delete(auditEvents).where(lt(auditEvents.occurredAt, cutoff)).returning({ id: auditEvents.id });
  return deleted.length;
}
