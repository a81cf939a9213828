import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { apiKeys, organizations } from '@/db/schema';
import type { Db } from '@/db/client';
import { perDatabase } from '@/db/raw-sql';
import { apiKeyRevokedEmail } from '@/emails/api-key-revoked';
import type { Deps } from '../../deps';
import { AppError, forbidden, notFound, validationError } from '../../errors';
import { newId } from '../../ids';
import { hashKey } from './admission';
import { findOwnDomain } from '../domains/repo';
import { planInForce } from '../plans/effective';
import type { Mode, Permission, Principal } from '../shared/principal';
import type { Dialect } from '../../vocabulary/api-keys';
import { enqueueSystemEmail } from '../system-mail/queue';
import { byPrincipal, keyLabel, recordAudit, type AuditSource } from '../audit/record';
import { noticeAddressOf } from '../organizations/notice-address';

type ApiKeyRecord = typeof apiKeys.$inferSelect;

interface ApiKeyView {
  id: string;
  name: string;
  tokenStart: string;
  permission: Permission;
  mode: Mode;
  domainId: string | null;
  dialect: Dialect;
  createdAt: string;
  /** When the key last authenticated, to the minute; null if never. */
  lastUsedAt: string | null;
}

const toApiKeyView = (row: ApiKeyRecord): ApiKeyView => ({
  id: row.id,
  name: row.name,
  tokenStart: row.tokenStart,
  permission: row.permission,
  mode: row.mode,
  domainId: row.domainId,
  dialect: row.dialect,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** Mints a secret of 256 random bits and stores only its hash. */
export async function issueApiKey(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  input: { organizationId: string; name: string; permission: Permission; mode: Mode; domainId: string | null; dialect?: Dialect },
): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = `eu_${input.mode}_${randomBytes(32).toString('base64url')}`;
  const [record] = await tx
    .insert(apiKeys)
    .values({
      id: newId(),
      organizationId: input.organizationId,
      name: input.name,
      tokenStart: key.slice(0, 12),
      keyHash: hashKey(key),
      permission: input.permission,
      mode: input.mode,
      domainId: input.domainId,
      dialect: input.dialect ?? 'spec',
      createdAt: deps.clock.now(),
    })
    .returning();
  return { key, record: record! };
}

/** The audit record of a new key, in the transaction that issued it. */
export function recordKeyCreated(tx: Db, deps: Pick<Deps, 'clock'>, key: ApiKeyRecord, by: AuditSource): Promise<void> {
  return recordAudit(tx, deps, {
    organizationId: key.organizationId,
    by,
    action: 'api_key.created',
    target: { type: 'api_key', id: key.id, label: keyLabel(key) },
    details: { permission: key.permission, mode: key.mode, domainId: key.domainId, ...(key.dialect === 'spec' ? {} : { dialect: key.dialect }) },
  });
}

export interface CreateApiKeyInput {
  name: string;
  permission?: Permission;
  domainId?: string | null;
  mode?: Mode;
  /** The shape of the key's REST answers; the spec's by default. */
  dialect?: Dialect;
}

export async function createApiKey(deps: Deps, principal: Principal, input: CreateApiKeyInput): Promise<ApiKeyView & { key: string }> {
  const permission = input.permission ?? 'full_access';
  const mode = input.mode ?? principal.mode;
  if (input.domainId && permission !== 'sending_access') {
    throw validationError('domain_id can only be set on a sending_access key');
  }
  // Rule 5 of the spec: a pinned key may not send from the sandbox, so pinning one to it is a mistake.
  if (input.domainId === deps.sandbox.id) {
    throw validationError('domain_id is the shared sandbox domain, which a pinned key may not send from; pin the key to a domain of your own');
  }
  if (principal.mode === 'test' && mode === 'live') {
    throw forbidden('A test key may only create test keys');
  }
  return deps.db.transaction(async (tx) => {
    // The row lock serialises concurrent creations, so the plan's key cap cannot be overrun.
    const plan = await planInForce(tx, principal.organizationId, deps.clock.now(), { lock: true });
    if (input.domainId && !(await findOwnDomain(tx, principal.organizationId, input.domainId))) {
      throw notFound('Domain');
    }
    // Test keys never count: the Free plan's one key is a live key (DESIGN: the cap counts live keys).
    const cap = plan.apiKeys;
    if (mode === 'live' && cap !== null) {
      const [{ count } = { count: 0 }] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(apiKeys)
        .where(and(eq(apiKeys.organizationId, principal.organizationId), eq(apiKeys.mode, 'live'), isNull(apiKeys.revokedAt)));
      if (count >= cap) {
        throw new AppError('PLAN_LIMIT_EXCEEDED', `The ${plan.label} plan allows ${cap} live API key${cap === 1 ? '' : 's'}; revoke one or upgrade`);
      }
    }
    const { key, record } = await issueApiKey(tx, deps, {
      organizationId: principal.organizationId,
      name: input.name,
      permission,
      mode,
      domainId: input.domainId ?? null,
      dialect: input.dialect,
    });
    await recordKeyCreated(tx, deps, record, byPrincipal(principal));
    return { ...toApiKeyView(record), key };
  });
}

const listKeys = perDatabase((db) => {
  const query = (testOnly: boolean, name: string) =>
    db
      .select()
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.organizationId, sql.placeholder('organizationId')),
          isNull(apiKeys.revokedAt),
          testOnly ? eq(apiKeys.mode, 'test') : undefined,
        ),
      )
      .orderBy(desc(apiKeys.id))
      .prepare(name);
  return { live: query(false, 'list_api_keys'), test: query(true, 'list_test_api_keys') };
});

/** A test key sees test keys only; a live principal sees every key of its organization. */
export async function listApiKeys(deps: Pick<Deps, 'db'>, principal: Principal): Promise<ApiKeyView[]> {
  const rows = await listKeys(deps.db)[principal.mode].execute({ organizationId: principal.organizationId });
  return rows.map(toApiKeyView);
}

export async function revokeApiKey(deps: Deps, principal: Principal, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [key] = await tx
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.organizationId, principal.organizationId), isNull(apiKeys.revokedAt)));
    if (!key) throw notFound('API key');
    if (principal.mode === 'test' && key.mode === 'live') throw forbidden('A test key cannot revoke a live key');
    const now = deps.clock.now();
    const revoked = await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    if (revoked.length === 0) throw notFound('API key');
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'api_key.revoked',
      target: { type: 'api_key', id: key.id, label: keyLabel(key) },
      details: { mode: key.mode },
    });
    if (key.mode === 'live') {
      const [organization] = await tx.select().from(organizations).where(eq(organizations.id, principal.organizationId));
      const emailId = await enqueueSystemEmail(tx, deps, {
        organizationId: principal.organizationId,
        kind: 'api_key_revoked',
        to: noticeAddressOf(organization!),
        email: apiKeyRevokedEmail({ organizationName: organization!.name, keyName: key.name, tokenStart: key.tokenStart, revokedAt: now }),
      });
      deps.jobs.wake('system-mail', emailId);
    }
  });
}

/**
 * Gives a key another name; its secret, permission and pin stay. A test key renames test keys
 * only, as it revokes them. The same name again changes and records nothing.
 */
export async function renameApiKey(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string, name: string): Promise<ApiKeyView> {
  return deps.db.transaction(async (tx) => {
    const [key] = await tx
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.organizationId, principal.organizationId), isNull(apiKeys.revokedAt)))
      .for('update');
    if (!key) throw notFound('API key');
    if (principal.mode === 'test' && key.mode === 'live') throw forbidden('A test key cannot rename a live key');
    if (key.name === name) return toApiKeyView(key);
    const [renamed] = await tx.update(apiKeys).set({ name }).where(eq(apiKeys.id, key.id)).returning();
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'api_key.renamed',
      target: { type: 'api_key', id: key.id, label: keyLabel(renamed!) },
      details: { name: { from: key.name, to: name } },
    });
    return toApiKeyView(renamed!);
  });
}

/** Revokes every key pinned to a domain, inside the caller's transaction (domain deletion), each recorded as revoked by whoever deleted it. */
export async function revokeKeysPinnedTo(tx: Db, deps: Pick<Deps, 'clock'>, organizationId: string, domainId: string, by: AuditSource): Promise<number> {
  const rows = await tx
    .update(apiKeys)
    .set({ revokedAt: deps.clock.now() })
    .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.domainId, domainId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, name: apiKeys.name, tokenStart: apiKeys.tokenStart, mode: apiKeys.mode });
  for (const key of rows) {
    await recordAudit(tx, deps, {
      organizationId,
      by,
      action: 'api_key.revoked',
      target: { type: 'api_key', id: key.id, label: keyLabel(key) },
      details: { mode: key.mode, reason: 'domain_deleted', domainId },
    });
  }
  return rows.length;
}
