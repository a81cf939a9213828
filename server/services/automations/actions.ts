import { eq } from 'drizzle-orm';
import { automations } from '@/db/schema';
import type { Deps } from '../../deps';
import { byPrincipal, recordAudit } from '../audit/record';
import { copyName } from '../shared/copy-name';
import type { Principal } from '../shared/principal';
import { insertAutomation } from './crud';
import { AUTOMATION_LIMITS } from './limits';
import { definitionOf, ownAutomation } from './rows';
import { endRunsOf } from './runs/end';
import { automationView, type AutomationView } from './view';

type WriteDeps = Pick<Deps, 'db' | 'clock' | 'jobs'>;

/**
 * Resend's stop: the automation is disabled (no run starts) and its runs under way are ended. Stopping
 * a disabled automation ends what runs it still has (a PATCH to disabled lets them finish).
 */
export async function stopAutomation(deps: WriteDeps, principal: Principal, id: string): Promise<AutomationView> {
  return deps.db.transaction(async (tx) => {
    const before = await ownAutomation(tx, principal, id, true);
    const runsEnded = await endRunsOf(tx, deps, before, 'stopped');
    const now = deps.clock.now();
    const [row] = await tx.update(automations).set({ status: 'disabled', updatedAt: before.status === 'disabled' ? before.updatedAt : now }).where(eq(automations.id, id)).returning();
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'automation.stopped',
      target: { type: 'automation', id, label: row!.name },
      details: { wasEnabled: before.status === 'enabled', runsEnded },
    });
    return automationView(row!, await definitionOf(tx, id, row!.currentVersion));
  });
}

/**
 * Deleted for the API (every read answers 404 from then on) and its runs ended. The row and its
 * versions stay, so the runs and emails that name it still resolve to its name.
 */
export async function deleteAutomation(deps: WriteDeps, principal: Principal, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const before = await ownAutomation(tx, principal, id, true);
    const runsEnded = await endRunsOf(tx, deps, before, 'deleted');
    const now = deps.clock.now();
    await tx.update(automations).set({ status: 'disabled', deletedAt: now, updatedAt: now }).where(eq(automations.id, id));
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'automation.deleted',
      target: { type: 'automation', id, label: before.name },
      details: { wasEnabled: before.status === 'enabled', runsEnded },
    });
  });
}

/** A new automation with this one's current definition, named "… (copy)", disabled (Resend's duplicate), at version 1. */
export async function duplicateAutomation(deps: WriteDeps, principal: Principal, id: string): Promise<AutomationView> {
  const source = await ownAutomation(deps.db, principal, id);
  const definition = await definitionOf(deps.db, id, source.currentVersion);
  return insertAutomation(deps, principal, { name: copyName(source.name, AUTOMATION_LIMITS.nameChars), status: 'disabled', definition }, { duplicatedFrom: id });
}
