import { and, count, desc, eq, gt, sql } from 'drizzle-orm';
import { events, webhookAttempts, webhookDeliveries, webhooks } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { AppError, forbidden, notFound } from '../../errors';
import { newId } from '../../ids';
import { planInForce } from '../plans/effective';
import type { Mode, Principal } from '../shared/principal';
import { DAY_MS } from '../shared/time';
import { eitherName, type TwoNames } from '../shared/two-names';
import { DASHBOARD_TEST_MODE_REFUSAL, TEST_KEY_REFUSAL } from '../../vocabulary/test-mode';
import { eventVisibleIn, testSecretOf } from './mode-secrets';
import { newSigningSecret, openSecret, sealSecret } from './secrets';
import { checkSubscriptions } from './subscriptions';
import { checkWebhookUrl } from './urls';
import { byPrincipal, recordAudit } from '../audit/record';
import { deliveryView, webhookView, type DeliveryView, type WebhookView } from './view';

/** `endpoint` is Resend's name for an endpoint's `url` (docs/resend.md): a request gives one of the two. */
export const WEBHOOK_URL_NAMES: TwoNames = { name: 'url', alias: 'endpoint' };

/** Deliveries the detail read lists, newest first. */
const RECENT_DELIVERIES = 50;

export type WebhookRow = typeof webhooks.$inferSelect;

/** The organization's endpoint, or 404 (another organization's is not found either). */
export async function ownWebhook(db: Db, principal: Principal, id: string, lock = false): Promise<WebhookRow> {
  const query = db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.organizationId, principal.organizationId)));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw notFound('Webhook');
  return row;
}

/** PLAN_LIMIT_EXCEEDED when the organization has as many endpoints as its plan in force allows; under its row lock, so concurrent creations queue. */
async function refuseAtWebhookCap(tx: Db, organizationId: string, now: Date): Promise<void> {
  const plan = await planInForce(tx, organizationId, now, { lock: true });
  const [{ value: existing } = { value: 0 }] = await tx.select({ value: count() }).from(webhooks).where(eq(webhooks.organizationId, organizationId));
  if (existing >= plan.webhookEndpoints) {
    const n = plan.webhookEndpoints;
    throw new AppError('PLAN_LIMIT_EXCEEDED', `The ${plan.label} plan allows ${n} webhook endpoint${n === 1 ? '' : 's'}; delete one or upgrade`);
  }
}

export interface CreatedWebhook extends WebhookView {
  /** The live secret: it signs every event. */
  secret: string;
  /** The test-mode secret: it signs test-mode events too (mode-secrets.ts). */
  testSecret: string;
}

export async function createWebhook(deps: Deps, principal: Principal, input: { url: string; events: string[] }): Promise<CreatedWebhook> {
  const subscriptions = checkSubscriptions(input.events);
  const url = await checkWebhookUrl(deps, input.url);
  const secret = newSigningSecret();
  const testSecret = newSigningSecret();
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    await refuseAtWebhookCap(tx, principal.organizationId, now);
    const [created] = await tx
      .insert(webhooks)
      .values({
        id: newId(),
        organizationId: principal.organizationId,
        url,
        events: subscriptions,
        secretSealed: sealSecret(secret, deps.encryptionKey),
        testSecretSealed: sealSecret(testSecret, deps.encryptionKey),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'webhook.created',
      target: { type: 'webhook', id: created!.id, label: url },
      details: { events: subscriptions },
    });
    return created!;
  });
  return { ...webhookView(row), secret, testSecret };
}

export interface WebhookHealth {
  /** Attempts over the last 24 hours, and how many of them got a 2xx. */
  attempts24h: number;
  succeeded24h: number;
  lastFailureAt: string | null;
  lastFailure: string | null;
}

export interface WebhookSummary extends WebhookView {
  health: WebhookHealth;
}

/** The organization's endpoints, newest first, each with its health over the last 24 hours. */
export async function listWebhooks(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal): Promise<WebhookSummary[]> {
  const since = new Date(deps.clock.now().getTime() - DAY_MS);
  const rows = await deps.db.select().from(webhooks).where(eq(webhooks.organizationId, principal.organizationId)).orderBy(desc(webhooks.id));
  if (rows.length === 0) return [];
  const stats = await deps.db
    .select({
      webhookId: webhookAttempts.webhookId,
      attempts: count(),
      succeeded: sql<number>`count(*) filter (where ${webhookAttempts.succeeded})::int`,
      lastFailureAt: sql<string | null>`max(${webhookAttempts.attemptedAt}) filter (where not ${webhookAttempts.succeeded})`,
    })
    .from(webhookAttempts)
    .where(and(sql`${webhookAttempts.webhookId} = any(${sql.param(rows.map((row) => row.id))}::uuid[])`, gt(webhookAttempts.attemptedAt, since)))
    .groupBy(webhookAttempts.webhookId);
  const lastFailures = await Promise.all(
    stats
      .filter((stat) => stat.lastFailureAt !== null)
      .map(async (stat) => {
        const [attempt] = await deps.db
          .select({ error: webhookAttempts.error, responseStatus: webhookAttempts.responseStatus })
          .from(webhookAttempts)
          .where(and(eq(webhookAttempts.webhookId, stat.webhookId), eq(webhookAttempts.succeeded, false), gt(webhookAttempts.attemptedAt, since)))
          .orderBy(desc(webhookAttempts.attemptedAt))
          .limit(1);
        return [stat.webhookId, attempt?.error ?? (attempt?.responseStatus ? `answered ${attempt.responseStatus}` : null)] as const;
      }),
  );
  const failureText = new Map(lastFailures);
  const byWebhook = new Map(stats.map((stat) => [stat.webhookId, stat]));
  return rows.map((row) => {
    const stat = byWebhook.get(row.id);
    return {
      ...webhookView(row),
      health: {
        attempts24h: stat?.attempts ?? 0,
        succeeded24h: stat?.succeeded ?? 0,
        lastFailureAt: stat?.lastFailureAt ? new Date(stat.lastFailureAt).toISOString() : null,
        lastFailure: failureText.get(row.id) ?? null,
      },
    };
  });
}

export interface WebhookDetail extends WebhookView {
  deliveries: DeliveryView[];
}

/** The endpoint and its recent deliveries: of test-mode events only for a test principal. */
export async function getWebhook(deps: Pick<Deps, 'db'>, principal: Principal, id: string): Promise<WebhookDetail> {
  const row = await ownWebhook(deps.db, principal, id);
  const visible = eventVisibleIn(principal.mode);
  const deliveries = visible
    ? (
        await deps.db
          .select({ delivery: webhookDeliveries })
          .from(webhookDeliveries)
          .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
          .where(and(eq(webhookDeliveries.webhookId, row.id), visible))
          .orderBy(desc(webhookDeliveries.id))
          .limit(RECENT_DELIVERIES)
      ).map((found) => found.delivery)
    : await deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, row.id)).orderBy(desc(webhookDeliveries.id)).limit(RECENT_DELIVERIES);
  return { ...webhookView(row), deliveries: deliveries.map(deliveryView) };
}

/** The URL (as `url` or `endpoint`, not both) and/or the events. */
export async function updateWebhook(deps: Deps, principal: Principal, id: string, input: { url?: string; endpoint?: string; events?: string[] }): Promise<WebhookView> {
  // Another organization's endpoint is not found, whatever the body says.
  await ownWebhook(deps.db, principal, id);
  const url = eitherName(WEBHOOK_URL_NAMES, input.url, input.endpoint);
  const changes: Partial<typeof webhooks.$inferInsert> = { updatedAt: deps.clock.now() };
  if (input.events !== undefined) changes.events = checkSubscriptions(input.events);
  if (url !== undefined) changes.url = await checkWebhookUrl(deps, url);
  return deps.db.transaction(async (tx) => {
    const before = await ownWebhook(tx, principal, id, true);
    const [row] = await tx
      .update(webhooks)
      .set(changes)
      .where(and(eq(webhooks.id, id), eq(webhooks.organizationId, principal.organizationId)))
      .returning();
    if (!row) throw notFound('Webhook');
    const details: Record<string, unknown> = {};
    if (before.url !== row.url) details.url = { from: before.url, to: row.url };
    if (before.events.join() !== row.events.join()) details.events = { from: before.events, to: row.events };
    if (Object.keys(details).length > 0) {
      await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'webhook.updated', target: { type: 'webhook', id, label: row.url }, details });
    }
    return webhookView(row);
  });
}

/** Deletes the endpoint and its deliveries: nothing more is sent to it, retries included. */
export async function deleteWebhook(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const deleted = await tx
      .delete(webhooks)
      .where(and(eq(webhooks.id, id), eq(webhooks.organizationId, principal.organizationId)))
      .returning({ id: webhooks.id, url: webhooks.url });
    if (deleted.length === 0) throw notFound('Webhook');
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'webhook.deleted', target: { type: 'webhook', id, label: deleted[0]!.url } });
  });
}

export interface WebhookSecret {
  /** The mode whose events `secret` is the one to verify with: the caller's. */
  mode: Mode;
  secret: string;
  /** To a live caller, the test-mode secret as well: the same endpoint receives test-mode events. */
  testSecret?: string;
}

/**
 * The secret of the caller's mode: a test key (or the dashboard in test mode) gets the test secret
 * and nothing that signs a live event; a live caller gets the live secret, and the test one beside it.
 */
export async function webhookSecret(deps: Pick<Deps, 'db' | 'encryptionKey'>, principal: Principal, id: string): Promise<WebhookSecret> {
  const row = await ownWebhook(deps.db, principal, id);
  const testSecret = await testSecretOf(deps, row);
  if (principal.mode === 'test') return { mode: 'test', secret: testSecret };
  return { mode: 'live', secret: openSecret(row.secretSealed, deps.encryptionKey), testSecret };
}

/**
 * A new secret for one mode (the caller's unless it names one), in effect at once: every attempt
 * reads the secrets when it signs, so the next one, a retry of an older event included, is signed
 * with it. The test secret is test-mode state, which a test key may change; the live one is not.
 */
export async function rotateWebhookSecret(deps: Deps, principal: Principal, id: string, requested?: Mode): Promise<{ mode: Mode; secret: string }> {
  const mode = requested ?? principal.mode;
  if (principal.mode === 'test' && mode === 'live') throw forbidden(principal.userId !== null ? DASHBOARD_TEST_MODE_REFUSAL : TEST_KEY_REFUSAL);
  const secret = newSigningSecret();
  const sealed = sealSecret(secret, deps.encryptionKey);
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhooks)
      .set(mode === 'live' ? { secretSealed: sealed, updatedAt: deps.clock.now() } : { testSecretSealed: sealed, updatedAt: deps.clock.now() })
      .where(and(eq(webhooks.id, id), eq(webhooks.organizationId, principal.organizationId)))
      .returning({ id: webhooks.id, url: webhooks.url });
    if (!row) throw notFound('Webhook');
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'webhook.secret_rotated', target: { type: 'webhook', id, label: row.url }, details: { mode } });
  });
  return { mode, secret };
}
