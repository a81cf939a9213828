import { eq, sql, type SQL } from 'drizzle-orm';
import { apiKeys, auditEvents, users } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { newId } from '../../ids';
import type { Principal, RequestOrigin } from '../shared/principal';
import type { AuditAction, AuditTargetType } from '../../vocabulary/audit';

export type AuditActor = { kind: 'user'; userId: string } | { kind: 'api_key'; keyId: string } | { kind: 'operator' } | { kind: 'billing' };

/** Who made a change and from where: what every recorded change carries. */
export interface AuditSource {
  actor: AuditActor;
  origin: RequestOrigin | null;
}

/** The operator's CLI: no person, no key, no address. */
export const OPERATOR: AuditSource = { actor: { kind: 'operator' }, origin: null };

/** The payment provider's reports (a paid or failed invoice) and what follows from them on their own (a grace period ending). */
export const BILLING: AuditSource = { actor: { kind: 'billing' }, origin: null };

/**
 * The actor behind a principal: its key, else its signed-in person. A principal with neither is
 * the process acting on no request's behalf (the operator's own commands, tests): the operator.
 */
export function byPrincipal(principal: Principal): AuditSource {
  const origin = principal.origin ?? null;
  if (principal.keyId) return { actor: { kind: 'api_key', keyId: principal.keyId }, origin };
  if (principal.userId) return { actor: { kind: 'user', userId: principal.userId }, origin };
  return { actor: OPERATOR.actor, origin };
}

export interface AuditTarget {
  type: AuditTargetType;
  id: string;
  label: string | null;
}

export interface AuditEntry {
  organizationId: string;
  by: AuditSource;
  action: AuditAction;
  target: AuditTarget;
  details?: Record<string, unknown>;
}

/** How an API key reads in the log: its name and the first characters of its secret. */
export const keyLabel = (key: { name: string; tokenStart: string }) => `${key.name} (${key.tokenStart}…)`;

// The actor's label is read by the insert itself, as it stands now: no extra round trip, and the
// row keeps it after the key or the person is gone.
function actorColumns(actor: AuditActor): { actorId: string | null; actorLabel: SQL | null } {
  switch (actor.kind) {
    case 'user':
      return { actorId: actor.userId, actorLabel: sql`(select ${users.email} from ${users} where ${eq(users.id, actor.userId)})` };
    case 'api_key':
      return {
        actorId: actor.keyId,
        actorLabel: sql`(select ${apiKeys.name} || ' (' || ${apiKeys.tokenStart} || '…)' from ${apiKeys} where ${eq(apiKeys.id, actor.keyId)})`,
      };
    case 'operator':
    case 'billing':
      return { actorId: null, actorLabel: null };
  }
}

/**
 * Records a change in the organization's audit log. Pass the transaction that makes the change,
 * so that the change and its record commit together or not at all.
 */
export async function recordAudit(tx: Db, deps: Pick<Deps, 'clock'>, entry: AuditEntry): Promise<void> {
  await tx.insert(auditEvents).values({
    id: newId(),
    organizationId: entry.organizationId,
    occurredAt: deps.clock.now(),
    actorKind: entry.by.actor.kind,
    ...actorColumns(entry.by.actor),
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id,
    targetLabel: entry.target.label,
    clientAddress: entry.by.origin?.address ?? null,
    userAgent: entry.by.origin?.userAgent ?? null,
    details: entry.details ?? {},
  });
}
