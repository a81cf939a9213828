import { automationRuns } from '@/db/schema';
import type { Deps } from '../../deps';
import { newId } from '../../ids';
import { notFound } from '../../errors';
import { ownContact } from '../contacts/own';
import type { Principal } from '../shared/principal';
import { ownAutomation } from './rows';
import { logRunEvents } from './runs/events';
import { wakeRuns } from './runs/start';
import { versionGraph } from './runs/version-graph';

/** The run a test started: test mode, so only Test mode's views show it. */
export interface TestRun {
  runId: string;
  automationId: string;
  version: number;
  contactId: string;
  contactEmail: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Starts one test run of the automation's current version for one contact (an id or an address),
 * whatever its trigger, its re-entry rule and its status: a disabled automation is the one people
 * test (docs/automations.md, "Dashboard"). The run is `test`, so its emails are simulated as a test
 * key's are and only Test mode reads it. It does not take room in the month's runs: one run per
 * person's click is not the volume the limit is about. The automation and the contact must be the
 * organization's (a deleted contact is gone: 404, as another organization's).
 */
export async function startTestRun(deps: Pick<Deps, 'db' | 'clock' | 'jobs'>, principal: Principal, automationId: string, contact: string): Promise<TestRun> {
  const target = contact.includes('@') ? { email: contact } : UUID.test(contact) ? { id: contact } : null;
  if (!target) throw notFound('Contact');
  const run = await deps.db.transaction(async (tx) => {
    const automation = await ownAutomation(tx, principal, automationId);
    const row = await ownContact(tx, principal, target, { field: 'contact' });
    const graph = await versionGraph(tx, automation.id, automation.currentVersion);
    const now = deps.clock.now();
    const values = {
      id: newId(),
      organizationId: principal.organizationId,
      automationId: automation.id,
      version: automation.currentVersion,
      contactId: row.id,
      contactEmail: row.email,
      test: true,
      status: 'running' as const,
      stepKey: graph.trigger.key,
      stepState: 'ready' as const,
      dueAt: now,
      // The trigger's event with nothing in it: `event.*` reads nothing, as for an event sent without a payload.
      event: { name: automation.triggerEventName, payload: {} },
      createdAt: now,
      updatedAt: now,
    };
    await tx.insert(automationRuns).values(values);
    await logRunEvents(tx, deps, 'running', [values]);
    return values;
  });
  wakeRuns(deps, [run.id]);
  return { runId: run.id, automationId: run.automationId, version: run.version, contactId: run.contactId, contactEmail: run.contactEmail };
}
