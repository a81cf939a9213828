import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { broadcasts, contactImports, topics, type TopicDefaultSubscription } from '@/db/schema';
import type { Db } from '@/db/client';
import { isUniqueViolation } from '@/db/unique-violation';
import type { Deps } from '../../deps';
import { conflict, notFound } from '../../errors';
import { newId } from '../../ids';
import { ownRow, refuseAtLimit } from '../shared/own-rows';
import type { Principal } from '../shared/principal';
import { byPrincipal, recordAudit } from '../audit/record';
import type { BroadcastStatus } from '../../vocabulary/broadcast-statuses';

/** Topics an organization may have: a preference page with more is no longer read. */
export const TOPIC_LIMIT = 50;

export type TopicRow = typeof topics.$inferSelect;

export interface TopicView {
  id: string;
  name: string;
  description: string | null;
  defaultSubscription: TopicDefaultSubscription;
  createdAt: string;
  updatedAt: string;
}

const view = (row: TopicRow): TopicView => ({
  id: row.id,
  name: row.name,
  description: row.description,
  defaultSubscription: row.defaultSubscription,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const sameName = (name: string) => conflict(`A topic named "${name}" exists already (names are compared without regard to case)`);

/** The organization's topic, or 404 (another organization's is not found either). */
export const ownTopic = (db: Db, principal: Pick<Principal, 'organizationId'>, id: string, lock = false): Promise<TopicRow> => ownRow(db, topics, 'Topic', principal, id, lock);

/**
 * The organization's topic, held (FOR SHARE) until the caller's transaction ends, so it cannot be
 * deleted under a broadcast being written to name it; 404 otherwise.
 */
export async function heldTopic(db: Db, principal: Pick<Principal, 'organizationId'>, id: string): Promise<TopicRow> {
  const [row] = await db
    .select()
    .from(topics)
    .where(and(eq(topics.id, id), eq(topics.organizationId, principal.organizationId)))
    .for('share');
  if (!row) throw notFound('Topic');
  return row;
}

/**
 * Broadcasts that will still send under their topic. Deleting the topic would leave them without
 * one, and a broadcast without a topic goes to every subscribed member, those who left the topic
 * included: so the topic stays while one of them names it.
 */
const SENDS_UNDER_TOPIC: readonly BroadcastStatus[] = ['draft', 'scheduled', 'sending', 'held'];

export async function createTopic(
  deps: Pick<Deps, 'db' | 'clock'>,
  principal: Principal,
  input: { name: string; description?: string | null; defaultSubscription: TopicDefaultSubscription },
): Promise<TopicView> {
  return deps.db.transaction(async (tx) => {
    await refuseAtLimit(tx, topics, principal, { most: TOPIC_LIMIT, plural: 'topics' });
    const now = deps.clock.now();
    const [row] = await tx
      .insert(topics)
      .values({ id: newId(), organizationId: principal.organizationId, name: input.name, description: input.description || null, defaultSubscription: input.defaultSubscription, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning();
    if (!row) throw sameName(input.name);
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'topic.created',
      target: { type: 'topic', id: row.id, label: row.name },
      details: { defaultSubscription: row.defaultSubscription },
    });
    return view(row);
  });
}

/** Oldest first: the order the preference page lists them in. */
export async function listTopics(deps: Pick<Deps, 'db'>, principal: Principal): Promise<TopicView[]> {
  const rows = await deps.db.select().from(topics).where(eq(topics.organizationId, principal.organizationId)).orderBy(asc(topics.createdAt), asc(topics.id));
  return rows.map(view);
}

export async function getTopic(deps: Pick<Deps, 'db'>, principal: Principal, id: string): Promise<TopicView> {
  return view(await ownTopic(deps.db, principal, id));
}

/** The name and the description change; the default subscription is what every contact who never chose agreed to, so it stays. */
export async function updateTopic(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string, input: { name?: string; description?: string | null }): Promise<TopicView> {
  return deps.db.transaction(async (tx) => {
    const before = await ownTopic(tx, principal, id, true);
    const name = input.name ?? before.name;
    const description = input.description === undefined ? before.description : input.description || null;
    if (name === before.name && description === before.description) return view(before);
    if (name.toLowerCase() !== before.name.toLowerCase()) {
      const [taken] = await tx
        .select({ id: topics.id })
        .from(topics)
        .where(and(eq(topics.organizationId, principal.organizationId), sql`lower(${topics.name}) = lower(${name})`));
      if (taken) throw sameName(name);
    }
    let row: TopicRow | undefined;
    try {
      [row] = await tx.update(topics).set({ name, description, updatedAt: deps.clock.now() }).where(eq(topics.id, id)).returning();
    } catch (error) {
      // Another spelling of a name taken meanwhile (the unique index compares lowercase).
      if (isUniqueViolation(error)) throw sameName(name);
      throw error;
    }
    const details: Record<string, unknown> = {};
    if (name !== before.name) details.name = { from: before.name, to: name };
    if (description !== before.description) details.description = { from: before.description, to: description };
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'topic.updated', target: { type: 'topic', id, label: name }, details });
    return view(row!);
  });
}

export async function deleteTopic(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await ownTopic(tx, principal, id, true);
    const [held] = await tx
      .select({ name: broadcasts.name, status: broadcasts.status })
      .from(broadcasts)
      .where(and(eq(broadcasts.topicId, row.id), inArray(broadcasts.status, [...SENDS_UNDER_TOPIC])))
      .limit(1);
    if (held) {
      const way = held.status === 'draft' || held.status === 'scheduled' ? 'change its topic first' : 'cancel it or wait until it is sent';
      throw conflict(`The topic cannot be deleted: the broadcast "${held.name}" under it is ${held.status}; ${way}`);
    }
    // A topic an import is still giving its contacts cannot go: its next batch would name it.
    const [importing] = await tx
      .select({ id: contactImports.id })
      .from(contactImports)
      .where(and(inArray(contactImports.status, ['queued', 'in_progress']), sql`${contactImports.topics} @> ${JSON.stringify([{ id: row.id }])}::jsonb`))
      .limit(1);
    if (importing) throw conflict(`The topic cannot be deleted: the contact import ${importing.id} is giving its contacts this topic; wait for it to finish`);
    await tx.delete(topics).where(eq(topics.id, row.id));
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'topic.deleted', target: { type: 'topic', id: row.id, label: row.name } });
  });
}
