import { customEventName } from '../fields';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { customEvents, type CustomEventFieldType } from '@/db/schema';
import type { Deps } from '../../../deps';
import { conflict, notFound } from '../../../errors';
import { isUuid, newId } from '../../../ids';
import { byPrincipal, recordAudit } from '../../audit/record';
import { refuseAtLimit } from '../../shared/own-rows';
import { fetchPage, type Page } from '../../shared/pagination';
import type { Principal } from '../../shared/principal';

// The organization's declared event names (Resend's `POST /events`): what a sent payload is checked
// against. Declaring is optional: an undeclared name may be sent and may trigger (docs/automations.md).

export type CustomEventRow = typeof customEvents.$inferSelect;
export type EventSchema = Record<string, CustomEventFieldType>;

/** Declarations an organization may keep: far more than the automations (200) can name. */
export const CUSTOM_EVENT_LIMIT = 500;

export interface CustomEventView {
  id: string;
  name: string;
  /** The payload's fields and their types; null when none is declared. */
  schema: EventSchema | null;
  createdAt: string;
  /** Null until its schema is first changed (Resend's). */
  updatedAt: string | null;
}

const view = (row: CustomEventRow): CustomEventView => ({
  id: row.id,
  name: row.name,
  schema: row.schema ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt?.toISOString() ?? null,
});

/** The organization's declaration named by its id or by its name, or 404 (another organization's is not found either). */
export async function ownCustomEvent(db: Db, principal: Pick<Principal, 'organizationId'>, identifier: string, lock = false): Promise<CustomEventRow> {
  // A text that no event could be named (a NUL byte, which Postgres text refuses) names none.
  if (!isUuid(identifier) && !customEventName.safeParse(identifier).success) throw notFound('Event');
  const which = isUuid(identifier) ? eq(customEvents.id, identifier.toLowerCase()) : eq(customEvents.name, identifier);
  const query = db
    .select()
    .from(customEvents)
    .where(and(eq(customEvents.organizationId, principal.organizationId), which));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Event');
  return row;
}

/** The declaration of this name, if the organization made one (what `POST /events/send` checks a payload against). */
export async function declaredEvent(db: Db, organizationId: string, name: string): Promise<CustomEventRow | null> {
  const [row] = await db
    .select()
    .from(customEvents)
    .where(and(eq(customEvents.organizationId, organizationId), eq(customEvents.name, name)));
  return row ?? null;
}

type WriteDeps = Pick<Deps, 'db' | 'clock'>;

export async function createCustomEvent(deps: WriteDeps, principal: Principal, input: { name: string; schema?: EventSchema | null }): Promise<CustomEventView> {
  return deps.db.transaction(async (tx) => {
    await refuseAtLimit(tx, customEvents, principal, { most: CUSTOM_EVENT_LIMIT, plural: 'declared events' });
    const [row] = await tx
      .insert(customEvents)
      .values({ id: newId(), organizationId: principal.organizationId, name: input.name, schema: input.schema ?? null, createdAt: deps.clock.now(), updatedAt: null })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict(`An event named "${input.name}" is declared already`);
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'custom_event.created',
      target: { type: 'custom_event', id: row.id, label: row.name },
      details: { fields: Object.keys(row.schema ?? {}) },
    });
    return view(row);
  });
}

/** Newest first, in pages, as the other lists. */
export async function listCustomEvents(deps: Pick<Deps, 'db'>, principal: Principal, page: { limit: number; cursor?: string }): Promise<Page<CustomEventView>> {
  const result = await fetchPage(customEvents.id, page, ({ where, orderBy, limit }) =>
    deps.db.select().from(customEvents).where(and(eq(customEvents.organizationId, principal.organizationId), where)).orderBy(orderBy).limit(limit),
  );
  return { data: result.data.map(view), nextCursor: result.nextCursor };
}

export async function getCustomEvent(deps: Pick<Deps, 'db'>, principal: Principal, identifier: string): Promise<CustomEventView> {
  return view(await ownCustomEvent(deps.db, principal, identifier));
}

/** Only the schema changes (Resend's): null removes it, and payloads are no longer checked. The name is what triggers name. */
export async function updateCustomEvent(deps: WriteDeps, principal: Principal, identifier: string, schema: EventSchema | null): Promise<CustomEventView> {
  return deps.db.transaction(async (tx) => {
    const before = await ownCustomEvent(tx, principal, identifier, true);
    const [row] = await tx.update(customEvents).set({ schema, updatedAt: deps.clock.now() }).where(eq(customEvents.id, before.id)).returning();
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'custom_event.updated',
      target: { type: 'custom_event', id: before.id, label: before.name },
      details: { schema: { from: before.schema ?? null, to: schema } },
    });
    return view(row!);
  });
}

/** Removes the declaration: the name may still be sent (unchecked), and automations naming it go on. */
export async function deleteCustomEvent(deps: WriteDeps, principal: Principal, identifier: string): Promise<CustomEventView> {
  return deps.db.transaction(async (tx) => {
    const row = await ownCustomEvent(tx, principal, identifier, true);
    await tx.delete(customEvents).where(eq(customEvents.id, row.id));
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'custom_event.deleted', target: { type: 'custom_event', id: row.id, label: row.name } });
    return view(row);
  });
}
