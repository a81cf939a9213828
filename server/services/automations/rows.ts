import { and, count, eq, isNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { automations, automationVersions, type AutomationDefinition } from '@/db/schema';
import { conflict, notFound } from '../../errors';
import type { Principal } from '../shared/principal';
import { AUTOMATION_LIMITS } from './limits';
import type { AutomationRow } from './view';

/** The organization's automation, or 404: another organization's, and a deleted one, are not found either. `lock` holds it for update. */
export async function ownAutomation(db: Db, principal: Pick<Principal, 'organizationId'>, id: string, lock = false): Promise<AutomationRow> {
  const query = db
    .select()
    .from(automations)
    .where(and(eq(automations.id, id), eq(automations.organizationId, principal.organizationId), isNull(automations.deletedAt)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Automation');
  return row;
}

/** The definition of one version. */
export async function definitionOf(db: Db, automationId: string, version: number): Promise<AutomationDefinition> {
  const [row] = await db
    .select({ definition: automationVersions.definition })
    .from(automationVersions)
    .where(and(eq(automationVersions.automationId, automationId), eq(automationVersions.version, version)));
  if (!row) throw notFound('Automation version');
  return row.definition;
}

/** Writes a version; versions are only ever added (the table refuses updates). */
export async function addVersion(db: Db, row: Pick<AutomationRow, 'id' | 'organizationId'>, version: number, definition: AutomationDefinition, now: Date): Promise<void> {
  await db.insert(automationVersions).values({ automationId: row.id, organizationId: row.organizationId, version, definition, createdAt: now });
}

/** 409 once the organization keeps as many automations as it may (deleted ones do not count). */
export async function refuseAtAutomationLimit(db: Db, organizationId: string): Promise<void> {
  const [{ kept } = { kept: 0 }] = await db
    .select({ kept: count() })
    .from(automations)
    .where(and(eq(automations.organizationId, organizationId), isNull(automations.deletedAt)));
  const most = AUTOMATION_LIMITS.perOrganization;
  if (kept >= most) throw conflict(`The organization has ${most} automations, the most it may keep: delete one first`);
}
