import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { automationRunMonths, automationRuns, automations, organizations } from '@/db/schema';
import { effectivePlan } from '../../plans/effective';
import type { Deps } from '../../../deps';
import { newId } from '../../../ids';
import { durationSeconds } from '../duration';
import type { TriggerConfig } from '../trigger';
import { logRunEvents } from './events';
import { versionGraph } from './version-graph';

/** An event that may start runs: the customer's own (`POST /events/send`), or one this service raises (a contact created, an email opened, …). */
export interface TriggerEvent {
  organizationId: string;
  name: string;
  payload: Record<string, unknown>;
  /** Sent with a test key, or about test-mode mail: its runs are test runs (their emails simulated). */
  test: boolean;
  contacts: Array<{ id: string; email: string }>;
  /** What a trigger's filter reads: the segment joined, the topic subscribed, the email's tags. */
  about?: { segmentId?: string; topicId?: string; tags?: Array<{ name: string; value: string }>; automationId?: string };
}

/** Whether a trigger's filter lets the event through (the segment, the topic, the tag it names; the one automation a date sweep's event is for). */
function triggerMatches(automationId: string, config: TriggerConfig, event: TriggerEvent): boolean {
  // A date reached is the date of one automation's property: the sweep raises it for that automation alone.
  if (event.about?.automationId !== undefined && event.about.automationId !== automationId) return false;
  if ('segment_id' in config) return event.about?.segmentId === config.segment_id;
  if ('topic_id' in config) return event.about?.topicId === config.topic_id;
  if ('tag' in config && config.tag) {
    const { name, value } = config.tag;
    return (event.about?.tags ?? []).some((tag) => tag.name === name && (value === undefined || tag.value === value));
  }
  return true;
}

/** The contacts re-entry keeps out: any run of the automation (`once`), or one started within the period (`after`), of the event's mode (test runs never keep a live run out). */
async function keptOut(tx: Db, automationId: string, config: TriggerConfig, contactIds: string[], test: boolean, now: Date): Promise<Set<string>> {
  const reEntry = config.re_entry;
  if (!reEntry || contactIds.length === 0) return new Set();
  const since = reEntry.type === 'after' ? new Date(now.getTime() - durationSeconds(reEntry.duration)! * 1_000) : null;
  const rows = await tx
    .selectDistinct({ contactId: automationRuns.contactId })
    .from(automationRuns)
    .where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.test, test), inArray(automationRuns.contactId, contactIds), since ? gt(automationRuns.createdAt, since) : undefined));
  return new Set(rows.map((row) => row.contactId!));
}

/**
 * Starts a run of every enabled automation whose trigger this event is, for each of its contacts,
 * in the caller's transaction (the event is recorded in the same one: a run starts exactly when its
 * event is kept). Each run pins the automation's current version and starts at its trigger step,
 * due now. Re-entry is applied per contact. Answers the runs started; the caller wakes them once
 * its transaction has committed (`wakeRuns`).
 */
export async function startRuns(tx: Db, deps: Pick<Deps, 'clock' | 'jobs'>, event: TriggerEvent): Promise<string[]> {
  if (event.contacts.length === 0) return [];
  const candidates = await tx
    .select({ id: automations.id, version: automations.currentVersion })
    .from(automations)
    .where(and(eq(automations.organizationId, event.organizationId), eq(automations.triggerEventName, event.name), eq(automations.status, 'enabled'), isNull(automations.deletedAt)));
  if (candidates.length === 0) return [];
  const now = deps.clock.now();
  const started: string[] = [];
  for (const automation of candidates) {
    const graph = await versionGraph(tx, automation.id, automation.version);
    const config = graph.trigger.config as TriggerConfig;
    if (!triggerMatches(automation.id, config, event)) continue;
    // Serializes the starts of one automation, so two events for one contact at once see each other's run under re-entry.
    if (config.re_entry) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${automation.id}))`);
    const out = await keptOut(tx, automation.id, config, event.contacts.map((contact) => contact.id), event.test, now);
    const entering = event.contacts.filter((contact) => !out.has(contact.id));
    const granted = await reserveRuns(tx, event.organizationId, entering.length, now);
    const rows = entering
      .slice(0, granted)
      .map((contact) => ({
        id: newId(),
        organizationId: event.organizationId,
        automationId: automation.id,
        version: automation.version,
        contactId: contact.id,
        contactEmail: contact.email,
        test: event.test,
        status: 'running' as const,
        stepKey: graph.trigger.key,
        stepState: 'ready' as const,
        dueAt: now,
        event: { name: event.name, payload: event.payload },
        createdAt: now,
        updatedAt: now,
      }));
    if (rows.length === 0) continue;
    await tx.insert(automationRuns).values(rows);
    await logRunEvents(tx, deps, 'running', rows);
    started.push(...rows.map((row) => row.id));
  }
  return started;
}

/**
 * Takes room for `wanted` runs in the organization's month (the plan's `automationRunsPerMonth`),
 * under the counter row's lock, and answers how many may start: past the limit, the rest of the
 * contacts start nothing this month (the event is still recorded).
 */
async function reserveRuns(tx: Db, organizationId: string, wanted: number, now: Date): Promise<number> {
  if (wanted === 0) return 0;
  const month = now.toISOString().slice(0, 7);
  const [organization] = await tx.select({ plan: organizations.plan, pendingPlan: organizations.pendingPlan, pendingPlanAt: organizations.pendingPlanAt }).from(organizations).where(eq(organizations.id, organizationId));
  const limit = effectivePlan(organization!, now).automationRunsPerMonth;
  await tx.insert(automationRunMonths).values({ organizationId, month, started: 0 }).onConflictDoNothing();
  const where = and(eq(automationRunMonths.organizationId, organizationId), eq(automationRunMonths.month, month));
  const [counter] = await tx.select({ started: automationRunMonths.started }).from(automationRunMonths).where(where).for('update');
  const granted = Math.max(0, Math.min(wanted, limit - counter!.started));
  if (granted > 0) await tx.update(automationRunMonths).set({ started: counter!.started + granted }).where(where);
  return granted;
}

/** Tells the run engine that runs are due now (after the transaction that started or woke them committed). */
export function wakeRuns(deps: Pick<Deps, 'jobs'>, runIds: string[]): void {
  if (runIds.length > 0) deps.jobs.wake('automation-run', runIds);
}
