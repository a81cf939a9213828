import { and, eq } from 'drizzle-orm';
import { broadcasts, templates } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { conflict, notFound, validationError } from '../../errors';
import { newId } from '../../ids';
import { ownAudience } from '../audiences/crud';
import { heldTopic } from '../topics/crud';
import { fetchPage, type Page } from '../shared/pagination';
import type { Principal } from '../shared/principal';
import { eitherName, type TwoNames } from '../shared/two-names';
import { recordBroadcastChange, recordBroadcastUpdated } from './audit';
import { checkContent } from './content';
import { ownBroadcast } from './own';
import { scheduleInTransaction, unschedule } from './send';
import { DELETABLE, EDITABLE } from '../../vocabulary/broadcast-statuses';
import { broadcastSummary, broadcastView, type BroadcastRow, type BroadcastSummary, type BroadcastView } from './view';

/** `segment_id` is Resend's name for `audience_id` (a segment is an audience under another name, docs/contacts.md): a request gives one of the two. */
export const AUDIENCE_NAMES: TwoNames = { name: 'audience_id', alias: 'segment_id' };

export interface CreateBroadcastInput {
  audienceId: string;
  /** Sent under this topic of the organization's: only the members in it get it. */
  topicId?: string | null;
  /** Only members whose consent was confirmed get it (docs/consent.md). */
  requireConfirmedConsent?: boolean;
  from: string;
  name?: string;
  replyTo?: string[];
  subject?: string;
  html?: string;
  text?: string;
  templateId?: string;
  /** The preheader (preheader.ts). */
  previewText?: string;
}

/**
 * Any of the fields. Giving `templateId` clears html and text, giving html or text clears the
 * template: the last one named wins. `scheduledAt` schedules (a time) or unschedules (null).
 */
export interface UpdateBroadcastInput {
  audienceId?: string;
  /** `audienceId` under Resend's name: one of the two. */
  segmentId?: string;
  /** A topic of the organization's, or null for none. */
  topicId?: string | null;
  requireConfirmedConsent?: boolean;
  from?: string;
  name?: string;
  replyTo?: string[];
  subject?: string | null;
  html?: string | null;
  text?: string | null;
  templateId?: string | null;
  previewText?: string | null;
  scheduledAt?: Date | null;
}

async function ownTemplateName(db: Db, principal: Principal, id: string): Promise<{ name: string; subject: string }> {
  const [row] = await db
    .select({ name: templates.name, subject: templates.subject })
    .from(templates)
    .where(and(eq(templates.id, id), eq(templates.organizationId, principal.organizationId)));
  if (!row) throw notFound('Template');
  return row;
}

/** What a broadcast says, checked: its own Liquid content, or a template of the organization (whose own rules were checked when it was saved). */
async function checkMessage(db: Db, principal: Principal, row: Pick<BroadcastRow, 'subject' | 'html' | 'text' | 'templateId'>): Promise<void> {
  if (row.templateId) {
    if (row.html !== null || row.text !== null) throw validationError('template_id: give either template_id or html/text');
    await ownTemplateName(db, principal, row.templateId);
    if (row.subject !== null) checkContent({ subject: row.subject, html: null, text: '' });
    return;
  }
  if (row.subject === null) throw validationError('subject: required unless template_id is given');
  checkContent({ subject: row.subject, html: row.html, text: row.text });
}

export async function createBroadcast(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, input: CreateBroadcastInput): Promise<BroadcastView> {
  if (input.templateId && (input.html !== undefined || input.text !== undefined)) throw validationError('template_id: give either template_id or html/text');
  await ownAudience(deps.db, principal, input.audienceId);
  const content = { subject: input.subject ?? null, html: input.html ?? null, text: input.text ?? null, templateId: input.templateId ?? null };
  await checkMessage(deps.db, principal, content);
  const template = input.templateId ? await ownTemplateName(deps.db, principal, input.templateId) : null;
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    if (input.topicId) await heldTopic(tx, principal, input.topicId);
    const [created] = await tx
      .insert(broadcasts)
      .values({
        id: newId(),
        organizationId: principal.organizationId,
        audienceId: input.audienceId,
        topicId: input.topicId ?? null,
        requireConfirmedConsent: input.requireConfirmedConsent ?? false,
        name: input.name ?? content.subject ?? template?.name ?? 'Broadcast',
        from: input.from,
        replyTo: input.replyTo ?? [],
        ...content,
        previewText: input.previewText || null,
        status: 'draft',
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await recordBroadcastChange(tx, deps, principal, created!, 'broadcast.created');
    return created!;
  });
  return broadcastView(row);
}

export async function getBroadcast(deps: Pick<Deps, 'db'>, principal: Principal, id: string): Promise<BroadcastView> {
  return broadcastView(await ownBroadcast(deps.db, principal, id));
}

export async function listBroadcasts(deps: Pick<Deps, 'db'>, principal: Principal, page: { limit: number; cursor?: string }): Promise<Page<BroadcastSummary>> {
  const result = await fetchPage(broadcasts.id, page, ({ where, orderBy, limit }) =>
    deps.db
      .select()
      .from(broadcasts)
      .where(and(eq(broadcasts.organizationId, principal.organizationId), where))
      .orderBy(orderBy)
      .limit(limit),
  );
  return { data: result.data.map(broadcastSummary), nextCursor: result.nextCursor };
}

/** The fields of a draft or scheduled broadcast; scheduling goes through the same checks as a send. */
export async function updateBroadcast(deps: Deps, principal: Principal, id: string, input: UpdateBroadcastInput): Promise<BroadcastView> {
  const row = await deps.db.transaction(async (tx) => {
    // Another organization's broadcast is not found, whatever the body says.
    const current = await ownBroadcast(tx, principal, id, true);
    const audienceId = eitherName(AUDIENCE_NAMES, input.audienceId, input.segmentId);
    if (!EDITABLE.includes(current.status)) throw conflict(`The broadcast is ${current.status}: only a draft or scheduled broadcast can be changed`);
    if (audienceId !== undefined) await ownAudience(tx, principal, audienceId);
    if (input.topicId) await heldTopic(tx, principal, input.topicId);
    if (input.templateId && (input.html !== undefined || input.text !== undefined)) throw validationError('template_id: give either template_id or html/text');
    const next: Partial<BroadcastRow> = {};
    if (audienceId !== undefined) next.audienceId = audienceId;
    if (input.topicId !== undefined) next.topicId = input.topicId;
    if (input.requireConfirmedConsent !== undefined) next.requireConfirmedConsent = input.requireConfirmedConsent;
    for (const key of ['from', 'name', 'replyTo', 'subject', 'html', 'text', 'templateId', 'previewText'] as const) {
      if (input[key] !== undefined) Object.assign(next, { [key]: input[key] });
    }
    // An empty preheader is none.
    if (next.previewText === '') next.previewText = null;
    if (input.templateId) Object.assign(next, { html: null, text: null });
    if (input.html !== undefined || input.text !== undefined) next.templateId = null;
    const merged = { ...current, ...next };
    await checkMessage(tx, principal, merged);
    const [changed] = await tx
      .update(broadcasts)
      .set({ ...next, updatedAt: deps.clock.now() })
      .where(eq(broadcasts.id, current.id))
      .returning();
    let after = changed!;
    if (input.scheduledAt === null) after = await unschedule(tx, deps, after);
    else if (input.scheduledAt) after = await scheduleInTransaction(tx, deps, principal, after, input.scheduledAt);
    await recordBroadcastUpdated(tx, deps, principal, current, after);
    return after;
  });
  if (row.status === 'scheduled') deps.jobs.wake('broadcast-fanout', row.id, { organizationId: row.organizationId });
  return broadcastView(row);
}

export async function deleteBroadcast(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await ownBroadcast(tx, principal, id, true);
    if (!DELETABLE.includes(row.status)) throw conflict(`The broadcast is ${row.status}: only a draft or cancelled broadcast can be deleted; cancel it first`);
    await tx.delete(broadcasts).where(eq(broadcasts.id, row.id));
    await recordBroadcastChange(tx, deps, principal, row, 'broadcast.deleted');
  });
}
