import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { byPrincipal, recordAudit } from '../audit/record';
import type { Principal } from '../shared/principal';
import { latestContent, statusOf, type TemplateRow } from './view';

const CONTENT = ['subject', 'html', 'text'] as const;

/**
 * A saved edit, with the fields it changed (never their content: a body may be megabytes; a new
 * name is shown from and to), as last written: a change not sent yet (kept as a draft) says so. A save that
 * changed nothing is no change and is not recorded.
 */
export async function recordTemplateUpdated(tx: Db, deps: Pick<Deps, 'clock'>, principal: Principal, before: TemplateRow, after: TemplateRow): Promise<void> {
  const [from, to] = [latestContent(before), latestContent(after)];
  const fields = [
    ...(before.name !== after.name ? ['name'] : []),
    ...CONTENT.filter((field) => from[field] !== to[field]),
    ...(JSON.stringify(from.declaredVariables) !== JSON.stringify(to.declaredVariables) ? ['variables'] : []),
    ...((from.from ?? null) !== (to.from ?? null) ? ['from'] : []),
    ...(JSON.stringify(from.replyTo ?? []) !== JSON.stringify(to.replyTo ?? []) ? ['replyTo'] : []),
    ...(before.alias !== after.alias ? ['alias'] : []),
  ];
  if (fields.length === 0) return;
  await recordAudit(tx, deps, {
    organizationId: principal.organizationId,
    by: byPrincipal(principal),
    action: 'template.updated',
    target: { type: 'template', id: after.id, label: after.name },
    details: { fields, ...(before.name !== after.name ? { name: { from: before.name, to: after.name } } : {}), ...(statusOf(after) === 'draft' ? { draft: true } : {}) },
  });
}
