import { isDeepStrictEqual } from 'node:util';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { byPrincipal, recordAudit } from '../audit/record';
import type { Principal } from '../shared/principal';
import type { AuditAction } from '../../vocabulary/audit';
import type { BroadcastRow } from './view';

type BroadcastAction = Extract<AuditAction, `broadcast.${string}`>;

/** What a person or a key did to a broadcast, labelled with its name. Test copies are sends, not changes, and are not recorded. */
export function recordBroadcastChange(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  principal: Principal,
  row: Pick<BroadcastRow, 'id' | 'name'>,
  action: BroadcastAction,
  details: Record<string, unknown> = {},
): Promise<void> {
  return recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action, target: { type: 'broadcast', id: row.id, label: row.name }, details });
}

const EDITED = ['audienceId', 'topicId', 'from', 'name', 'replyTo', 'subject', 'html', 'text', 'templateId', 'previewText'] as const;

/**
 * A PATCH: the fields it changed (not their content) and, when it scheduled or unscheduled the
 * broadcast, the time. One that changed nothing is not recorded.
 */
export async function recordBroadcastUpdated(tx: Db, deps: Pick<Deps, 'clock'>, principal: Principal, before: BroadcastRow, after: BroadcastRow): Promise<void> {
  const fields = EDITED.filter((field) => !isDeepStrictEqual(before[field], after[field]));
  const rescheduled = before.status !== after.status || before.scheduledAt?.getTime() !== after.scheduledAt?.getTime();
  if (fields.length === 0 && !rescheduled) return;
  await recordBroadcastChange(tx, deps, principal, after, 'broadcast.updated', {
    fields,
    ...(rescheduled ? { scheduledAt: after.status === 'scheduled' ? (after.scheduledAt?.toISOString() ?? null) : null } : {}),
  });
}
