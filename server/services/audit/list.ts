import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { TEAM_MANAGERS } from '../../vocabulary/roles';
import { auditEvents } from '@/db/schema';
import { column, tableName } from '@/db/raw-sql';
import type { Deps } from '../../deps';
import { requireRole } from '../organizations/owners';
import type { Page } from '../shared/pagination';
import type { Principal } from '../shared/principal';
import { actionsOfGroup, type AuditActionGroup, type AuditActorKind, type AuditAction, type AuditTargetType } from '../../vocabulary/audit';

export interface AuditEventView {
  id: string;
  occurredAt: string;
  actor: { kind: AuditActorKind; id: string | null; label: string | null };
  action: AuditAction;
  target: { type: AuditTargetType; id: string; label: string | null };
  clientAddress: string | null;
  userAgent: string | null;
  details: Record<string, unknown>;
}

const toView = (row: typeof auditEvents.$inferSelect): AuditEventView => ({
  id: row.id,
  occurredAt: row.occurredAt.toISOString(),
  actor: { kind: row.actorKind, id: row.actorId, label: row.actorLabel },
  action: row.action,
  target: { type: row.targetType, id: row.targetId, label: row.targetLabel },
  clientAddress: row.clientAddress,
  userAgent: row.userAgent,
  details: row.details,
});

export interface ListAuditEventsInput {
  limit: number;
  /** The id of the last row of the previous page. */
  cursor?: string;
  group?: AuditActionGroup;
}

/**
 * The organization's audit log, newest first, for its owner in the dashboard only. Rows are in
 * the order of their time (the injectable clock's, which need not follow the ids), so a page
 * continues after the (time, id) of the cursor's row; a cursor that names no row of this
 * organization's log ends the list.
 */
export async function listAuditEvents(deps: Pick<Deps, 'db'>, principal: Principal, input: ListAuditEventsInput): Promise<Page<AuditEventView>> {
  await requireRole(deps, principal, TEAM_MANAGERS, 'Only the organization owner or an admin, signed in to the dashboard, can read the audit log');
  const after = input.cursor
    ? sql`(${auditEvents.occurredAt}, ${auditEvents.id}) < (select ${column(auditEvents, 'occurredAt', 'c')}, ${column(auditEvents, 'id', 'c')} from ${tableName(auditEvents, 'c')}
        where ${column(auditEvents, 'id', 'c')} = ${input.cursor} and ${column(auditEvents, 'organizationId', 'c')} = ${principal.organizationId})`
    : undefined;
  const rows = await deps.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.organizationId, principal.organizationId), input.group ? inArray(auditEvents.action, actionsOfGroup(input.group)) : undefined, after))
    .orderBy(desc(auditEvents.occurredAt), desc(auditEvents.id))
    .limit(input.limit + 1);
  const more = rows.length > input.limit;
  const data = (more ? rows.slice(0, input.limit) : rows).map(toView);
  return { data, nextCursor: more ? data[data.length - 1]!.id : null };
}
