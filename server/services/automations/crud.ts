import { and, eq, isNull } from 'drizzle-orm';
import { automations, type AutomationDefinition } from '@/db/schema';
import type { Deps } from '../../deps';
import { validationError } from '../../errors';
import { newId } from '../../ids';
import type { AutomationStatus } from '../../vocabulary/automations';
import { byPrincipal, recordAudit } from '../audit/record';
import { fetchPage, type Page } from '../shared/pagination';
import type { Principal } from '../shared/principal';
import { parseDefinition, sameDefinition, triggerEventName, type DefinitionInput } from './definition';
import { refuseUnlessPlanAllows } from './plan-rules';
import { checkReferences } from './references';
import { addVersion, definitionOf, ownAutomation, refuseAtAutomationLimit } from './rows';
import { automationView, listItem, type AutomationListItem, type AutomationView } from './view';

export interface AutomationInput extends DefinitionInput {
  name: string;
  /** Resend's default: disabled. */
  status?: AutomationStatus;
}

/** A change: the name, the status, or the definition (steps and connections together, as a whole). */
export interface AutomationChanges extends Partial<DefinitionInput> {
  name?: string;
  status?: AutomationStatus;
}

/** The new definition a change gives, if any: steps and connections replace it together. */
function definitionOfChange(changes: AutomationChanges): DefinitionInput | undefined {
  if (changes.steps === undefined && changes.connections === undefined) return undefined;
  if (changes.steps === undefined || changes.connections === undefined) {
    throw validationError(`${changes.steps === undefined ? 'steps' : 'connections'}: give steps and connections together: they replace the definition as a whole`);
  }
  return { steps: changes.steps, connections: changes.connections };
}

type WriteDeps = Pick<Deps, 'db' | 'clock'>;

/**
 * Stores an automation checked and ready at version 1. Shared by create and duplicate: the
 * definition is checked again against what the organization holds now.
 */
export async function insertAutomation(deps: WriteDeps, principal: Principal, input: { name: string; status: AutomationStatus; definition: AutomationDefinition }, details: Record<string, unknown> = {}): Promise<AutomationView> {
  return deps.db.transaction(async (tx) => {
    await refuseAtAutomationLimit(tx, principal.organizationId);
    await checkReferences(tx, principal.organizationId, input.definition);
    const now = deps.clock.now();
    if (input.status === 'enabled') await refuseUnlessPlanAllows(tx, principal.organizationId, now, { id: null, definition: input.definition });
    const id = newId();
    const [row] = await tx
      .insert(automations)
      .values({ id, organizationId: principal.organizationId, name: input.name, status: input.status, currentVersion: 1, triggerEventName: triggerEventName(input.definition), createdAt: now, updatedAt: now })
      .returning();
    await addVersion(tx, row!, 1, input.definition, now);
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'automation.created',
      target: { type: 'automation', id, label: input.name },
      details: { status: input.status, version: 1, trigger: row!.triggerEventName, ...details },
    });
    return automationView(row!, input.definition);
  });
}

export async function createAutomation(deps: WriteDeps, principal: Principal, input: AutomationInput): Promise<AutomationView> {
  const definition = parseDefinition(input);
  return insertAutomation(deps, principal, { name: input.name, status: input.status ?? 'disabled', definition });
}

/** Newest first, in pages, as the other lists; `status` keeps only the enabled or the disabled (Resend's filter). */
export async function listAutomations(deps: Pick<Deps, 'db'>, principal: Principal, page: { limit: number; cursor?: string; status?: AutomationStatus }): Promise<Page<AutomationListItem>> {
  const result = await fetchPage(automations.id, page, ({ where, orderBy, limit }) =>
    deps.db
      .select()
      .from(automations)
      .where(and(eq(automations.organizationId, principal.organizationId), isNull(automations.deletedAt), page.status ? eq(automations.status, page.status) : undefined, where))
      .orderBy(orderBy)
      .limit(limit),
  );
  return { data: result.data.map(listItem), nextCursor: result.nextCursor };
}

export async function getAutomation(deps: Pick<Deps, 'db'>, principal: Principal, id: string): Promise<AutomationView> {
  const row = await ownAutomation(deps.db, principal, id);
  return automationView(row, await definitionOf(deps.db, row.id, row.currentVersion));
}

/**
 * Changes what is given. Steps and connections unlike the current ones become the next version,
 * whatever the status: runs under way finish the version they started on, new runs take the new
 * one. Enabling, and changing an enabled automation's definition, are held to the plan.
 */
export async function updateAutomation(deps: WriteDeps, principal: Principal, id: string, changes: AutomationChanges): Promise<AutomationView> {
  return deps.db.transaction(async (tx) => {
    // The automation first: another organization's is 404 whatever the body says.
    const before = await ownAutomation(tx, principal, id, true);
    const given = definitionOfChange(changes);
    const parsed = given ? parseDefinition(given) : undefined;
    const current = await definitionOf(tx, id, before.currentVersion);
    const definition = parsed && !sameDefinition(parsed, current) ? parsed : undefined;
    const fields = [
      ...(changes.name !== undefined && changes.name !== before.name ? ['name'] : []),
      ...(changes.status !== undefined && changes.status !== before.status ? ['status'] : []),
      ...(definition ? ['steps', 'connections'] : []),
    ];
    if (fields.length === 0) return automationView(before, current);
    const status = changes.status ?? before.status;
    // Enabling arms it: what it names is checked again, since a template or segment may have gone since it was saved.
    const enabling = status === 'enabled' && before.status !== 'enabled';
    if (definition || enabling) await checkReferences(tx, principal.organizationId, definition ?? current);
    const now = deps.clock.now();
    if (enabling || (status === 'enabled' && definition)) await refuseUnlessPlanAllows(tx, principal.organizationId, now, { id, definition: definition ?? current });
    const version = definition ? before.currentVersion + 1 : before.currentVersion;
    if (definition) await addVersion(tx, before, version, definition, now);
    const [row] = await tx
      .update(automations)
      .set({ name: changes.name ?? before.name, status, currentVersion: version, triggerEventName: triggerEventName(definition ?? current), updatedAt: now })
      .where(eq(automations.id, id))
      .returning();
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'automation.updated',
      target: { type: 'automation', id, label: row!.name },
      details: { fields, status, version },
    });
    return automationView(row!, definition ?? current);
  });
}
