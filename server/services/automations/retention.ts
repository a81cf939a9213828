import { and, eq, exists, gt, inArray, lt, ne, notExists, or, sql } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { automationEmails, automationRuns, automations, automationVersions, organizations, receivedEvents } from '@/db/schema';
import type { Deps } from '../../deps';
import { PLANS } from '../plans/plans';
import { DAY_MS } from '../shared/time';

/**
 * How long the record of an automation's email (`automation_emails`) is kept, at every plan: what
 * its unsubscribe link reads (the contact and the step's topic), so a link in an email months old
 * still works, and what the figures' `sent` counts. It outlives the run that sent it.
 */
export const AUTOMATION_EMAIL_RETENTION_DAYS = 365;

/**
 * A version no run names is deleted once a later version has been current this long: the grace
 * covers a run starting on it at the very moment an edit replaced it (it read the current version
 * before the edit and commits after), so no run is ever left pinning a version that is gone.
 */
export const SUPERSEDED_VERSION_GRACE_DAYS = 1;

/** Rows deleted per statement, and statements per kind in one sweep: an hourly sweep is a few seconds at most, the rest the next (run again at once). */
export const RETENTION_BATCH = 1_000;
const MAX_BATCHES = 10;

export interface AutomationRetentionReport {
  /** Finished runs (completed, failed, cancelled), their step history with them. */
  runsDeleted: number;
  receivedEventsDeleted: number;
  versionsDeleted: number;
  automationEmailsDeleted: number;
  /** A kind stopped at its batch bound with rows left: the sweep should run again. */
  more: boolean;
}

/**
 * Automations' retention (docs/automations.md, "Retention"), hourly: finished runs go with their
 * step history once the plan's log retention has passed since they finished, the events sent with
 * `POST /events/send` once it has passed since they came, the records of automation emails after a
 * year, and versions no run names once they have been replaced a day. A run still going is never
 * deleted, however old. Each kind in bounded batches, so one sweep never holds a large delete.
 */
export async function applyAutomationRetention(deps: Pick<Deps, 'db' | 'clock'>): Promise<AutomationRetentionReport> {
  const db = deps.db;
  const now = deps.clock.now().getTime();
  const report: AutomationRetentionReport = { runsDeleted: 0, receivedEventsDeleted: 0, versionsDeleted: 0, automationEmailsDeleted: 0, more: false };
  /** Deletes a batch at a time (`deleteBatch` answers how many went) until one is short, or the bound is reached (then `more`). */
  const drain = async (deleteBatch: () => Promise<number>): Promise<number> => {
    let total = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const deleted = await deleteBatch();
      total += deleted;
      if (deleted < RETENTION_BATCH) return total;
    }
    report.more = true;
    return total;
  };

  for (const [days, planIds] of plansByLogRetention()) {
    const cutoff = new Date(now - days * DAY_MS);
    const ofPlans = (organizationId: AnyPgColumn) => inArray(organizationId, db.select({ id: organizations.id }).from(organizations).where(inArray(organizations.plan, planIds)));
    report.runsDeleted += await drain(async () => {
      const batch = db
        .select({ id: automationRuns.id })
        .from(automationRuns)
        .where(and(ne(automationRuns.status, 'running'), lt(automationRuns.completedAt, cutoff), ofPlans(automationRuns.organizationId)))
        .limit(RETENTION_BATCH);
      return (await db.delete(automationRuns).where(inArray(automationRuns.id, batch)).returning({ id: automationRuns.id })).length;
    });
    report.receivedEventsDeleted += await drain(async () => {
      const batch = db
        .select({ id: receivedEvents.id })
        .from(receivedEvents)
        .where(and(lt(receivedEvents.createdAt, cutoff), ofPlans(receivedEvents.organizationId)))
        .limit(RETENTION_BATCH);
      return (await db.delete(receivedEvents).where(inArray(receivedEvents.id, batch)).returning({ id: receivedEvents.id })).length;
    });
  }

  const emailCutoff = new Date(now - AUTOMATION_EMAIL_RETENTION_DAYS * DAY_MS);
  report.automationEmailsDeleted = await drain(async () => {
    const batch = db.select({ id: automationEmails.emailId }).from(automationEmails).where(lt(automationEmails.createdAt, emailCutoff)).limit(RETENTION_BATCH);
    return (await db.delete(automationEmails).where(inArray(automationEmails.emailId, batch)).returning({ id: automationEmails.emailId })).length;
  });

  const replacedBefore = new Date(now - SUPERSEDED_VERSION_GRACE_DAYS * DAY_MS);
  const later = alias(automationVersions, 'later');
  report.versionsDeleted = await drain(async () => {
    const unused = await db
      .select({ automationId: automationVersions.automationId, version: automationVersions.version })
      .from(automationVersions)
      .innerJoin(automations, eq(automations.id, automationVersions.automationId))
      .where(
        and(
          lt(automationVersions.version, automations.currentVersion),
          exists(
            db
              .select({ one: sql`1` })
              .from(later)
              .where(and(eq(later.automationId, automationVersions.automationId), gt(later.version, automationVersions.version), lt(later.createdAt, replacedBefore))),
          ),
          notExists(
            db
              .select({ one: sql`1` })
              .from(automationRuns)
              .where(and(eq(automationRuns.automationId, automationVersions.automationId), eq(automationRuns.version, automationVersions.version))),
          ),
        ),
      )
      .limit(RETENTION_BATCH);
    if (unused.length === 0) return 0;
    const deleted = await db
      .delete(automationVersions)
      .where(or(...unused.map((row) => and(eq(automationVersions.automationId, row.automationId), eq(automationVersions.version, row.version)))))
      .returning({ automationId: automationVersions.automationId });
    return deleted.length;
  });
  return report;
}

/** The plans grouped by their log retention (30 or 90 days), as the emails' retention does. */
function plansByLogRetention(): Map<number, string[]> {
  const byDays = new Map<number, string[]>();
  for (const plan of Object.values(PLANS)) byDays.set(plan.logRetentionDays, [...(byDays.get(plan.logRetentionDays) ?? []), plan.id]);
  return byDays;
}
