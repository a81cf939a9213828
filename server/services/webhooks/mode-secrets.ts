import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { events, webhooks } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import type { Mode } from '../shared/principal';
import { newSigningSecret, openSecret, sealSecret } from './secrets';

/*
 * Each endpoint has two secrets, as Stripe keeps one per mode. The live secret signs every event;
 * the test secret signs test-mode events as well, and is the only one a test key (or the dashboard
 * in test mode) ever reads or rotates. So a test integration verifies the test events it gets,
 * while nothing a test key can obtain signs a live event; a receiver holding the live secret goes
 * on verifying both modes as before (Standard Webhooks carries several signatures in one header).
 */

/** An event's mode as its payload says it: events without one (the organization's own, like domains) are live. */
export const modeOfEvent = (data: Record<string, unknown>): Mode => (data.mode === 'test' ? 'test' : 'live');

/**
 * The condition "this event is a test-mode one", written as the partial index `events_test_mode_idx`
 * states it (a literal, so every plan can use the index).
 */
export const isTestEvent: SQL = sql`${events.data}->>'mode' = 'test'`;

/** What a principal of this mode may see of the event log: everything live, test-mode events only for test. */
export const eventVisibleIn = (mode: Mode): SQL | undefined => (mode === 'test' ? isTestEvent : undefined);

/**
 * The endpoint's test secret. An endpoint made before test secrets existed gets one, sealed, the
 * first time it is needed; the update only fills an empty column, so two processes needing it at
 * once agree on the one stored.
 */
export async function testSecretOf(deps: Pick<Deps, 'db' | 'encryptionKey'>, webhook: { id: string; testSecretSealed: string | null }): Promise<string> {
  if (webhook.testSecretSealed) return openSecret(webhook.testSecretSealed, deps.encryptionKey);
  const fresh = newSigningSecret();
  const [stored] = await deps.db
    .update(webhooks)
    .set({ testSecretSealed: sealSecret(fresh, deps.encryptionKey) })
    .where(and(eq(webhooks.id, webhook.id), isNull(webhooks.testSecretSealed)))
    .returning({ id: webhooks.id });
  if (stored) return fresh;
  const [row] = await deps.db.select({ sealed: webhooks.testSecretSealed }).from(webhooks).where(eq(webhooks.id, webhook.id));
  if (!row?.sealed) throw notFound('Webhook');
  return openSecret(row.sealed, deps.encryptionKey);
}

/**
 * The secrets an event is signed with, its own mode's first: a live event with the live secret
 * only; a test event with the test secret and the live one.
 */
export async function signingSecretsOf(
  deps: Pick<Deps, 'db' | 'encryptionKey'>,
  webhook: { id: string; secretSealed: string; testSecretSealed: string | null },
  eventData: Record<string, unknown>,
): Promise<string[]> {
  const live = openSecret(webhook.secretSealed, deps.encryptionKey);
  if (modeOfEvent(eventData) === 'live') return [live];
  return [await testSecretOf(deps, webhook), live];
}
