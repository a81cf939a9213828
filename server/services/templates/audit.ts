import type { Db } from '@/db/client';
import type { templates } from '@/db/schema';
import type { Deps } from '../../deps';
import { byPrincipal, recordAudit } from '../audit/record';
import type { Principal } from '../shared/principal';

type TemplateRow = typeof templates.$inferSelect;

const FIELDS = ['name', 'subject', 'html', 'text'] as const;

/**
 * A saved edit, with the fields it changed (never their content: a body may be megabytes; a new
 * name is shown from and to). A save
 * that changed nothing is no change and is not recorded.
 */
export async function recordTemplateUpdated(tx: Db, deps: Pick<Deps, 'clock'>, principal: Principal, before: TemplateRow, after: TemplateRow): Promise<void> {
  const fields = FIELDS.filter((field) => before[field] !== after[field]);
  if (fields.length === 0) return;
  await recordAudit(tx, deps, {
    organizationId: principal.organizationId,
    by: byPrincipal(principal),
    action: 'template.updated',
    target: { type: 'template', id: after.id, label: after.name },
    details: { fields, ...(before.name !== after.name ? { name: { from: before.name, to: after.name } } : {}) },
  });
}
