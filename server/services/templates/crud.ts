import { and, eq } from 'drizzle-orm';
import { templates } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { notFound, validationError } from '../../errors';
import { newId } from '../../ids';
import { fetchPage, type Page } from '../shared/pagination';
import type { Principal } from '../shared/principal';
import { byPrincipal, recordAudit } from '../audit/record';
import { recordTemplateUpdated } from './audit';
import { TEMPLATE_LIMITS } from './limits';
import { parseTemplate, type ParsedTemplate, type TemplateSource } from './parse';
import { forgetSource, rememberSource } from './sources';

export type TemplateRow = typeof templates.$inferSelect;

/** A template as the list shows it: no bodies (they may be megabytes each). */
export interface TemplateSummary {
  id: string;
  name: string;
  subject: string;
  variables: string[];
  createdAt: string;
  updatedAt: string;
}

export interface TemplateView extends TemplateSummary {
  html: string | null;
  text: string | null;
}

export interface CreateTemplateInput {
  name: string;
  subject: string;
  html?: string;
  text?: string;
}

/** Any of the fields; `null` removes the html or text part (one of them must remain). */
export interface UpdateTemplateInput {
  name?: string;
  subject?: string;
  html?: string | null;
  text?: string | null;
}

const summaryView = (row: Pick<TemplateRow, 'id' | 'name' | 'subject' | 'variables' | 'createdAt' | 'updatedAt'>): TemplateSummary => ({
  id: row.id,
  name: row.name,
  subject: row.subject,
  variables: row.variables,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const templateView = (row: TemplateRow): TemplateView => ({ ...summaryView(row), html: row.html, text: row.text });

/** The organization's template, or 404 (another organization's is not found either). */
export async function ownTemplate(db: Db, principal: Principal, id: string, lock = false): Promise<TemplateRow> {
  const query = db
    .select()
    .from(templates)
    .where(and(eq(templates.id, id), eq(templates.organizationId, principal.organizationId)));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw notFound('Template');
  return row;
}

/** The rules of a whole template that come before parsing (the edge bounds each field): a 400 naming the field. */
export function checkContent(source: TemplateSource): void {
  if (source.html === null && source.text === null) throw validationError('html: give html, text or both');
  const bytes = Buffer.byteLength(source.html ?? '') + Buffer.byteLength(source.text ?? '');
  if (bytes > TEMPLATE_LIMITS.bodyBytes) throw validationError(`html: html and text together may be at most ${TEMPLATE_LIMITS.bodyBytes} bytes`);
}

/** The rules of a whole template, then its parts parsed: every refusal is a 400 naming the field. */
function checkTemplate(source: TemplateSource): ParsedTemplate {
  checkContent(source);
  return parseTemplate(source);
}

export async function createTemplate(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, input: CreateTemplateInput): Promise<TemplateView> {
  const source = { subject: input.subject, html: input.html ?? null, text: input.text ?? null };
  const parsed = checkTemplate(source);
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(templates)
      .values({ id: newId(), organizationId: principal.organizationId, name: input.name, ...source, variables: parsed.variables, createdAt: now, updatedAt: now })
      .returning();
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'template.created', target: { type: 'template', id: created!.id, label: created!.name } });
    return created!;
  });
  rememberSource(row);
  return templateView(row);
}

/** The organization's templates, newest first, in cursor pages. */
export async function listTemplates(deps: Pick<Deps, 'db'>, principal: Principal, query: { limit: number; cursor?: string }): Promise<Page<TemplateSummary>> {
  const page = await fetchPage(templates.id, query, ({ where, orderBy, limit }) =>
    deps.db
      .select({ id: templates.id, name: templates.name, subject: templates.subject, variables: templates.variables, createdAt: templates.createdAt, updatedAt: templates.updatedAt })
      .from(templates)
      .where(and(eq(templates.organizationId, principal.organizationId), where))
      .orderBy(orderBy)
      .limit(limit),
  );
  return { data: page.data.map(summaryView), nextCursor: page.nextCursor };
}

export async function getTemplate(deps: Pick<Deps, 'db'>, principal: Principal, id: string): Promise<TemplateView> {
  return templateView(await ownTemplate(deps.db, principal, id));
}

/**
 * Changes any of the fields and finds the variables again. `updatedAt` moves forward by at least
 * a millisecond on every change, even when the clock has not: with the id it names the version
 * that parsed copies are cached under, in every process.
 */
export async function updateTemplate(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string, input: UpdateTemplateInput): Promise<TemplateView> {
  const row = await deps.db.transaction(async (tx) => {
    const current = await ownTemplate(tx, principal, id, true);
    const source: TemplateSource = {
      subject: input.subject ?? current.subject,
      html: input.html === undefined ? current.html : input.html,
      text: input.text === undefined ? current.text : input.text,
    };
    const checked = checkTemplate(source);
    const updatedAt = new Date(Math.max(deps.clock.now().getTime(), current.updatedAt.getTime() + 1));
    const [updated] = await tx
      .update(templates)
      .set({ name: input.name ?? current.name, ...source, variables: checked.variables, updatedAt })
      .where(eq(templates.id, current.id))
      .returning();
    await recordTemplateUpdated(tx, deps, principal, current, updated!);
    return updated!;
  });
  rememberSource(row);
  return templateView(row);
}

export async function deleteTemplate(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(templates)
      .where(and(eq(templates.id, id), eq(templates.organizationId, principal.organizationId)))
      .returning({ id: templates.id, name: templates.name });
    if (!deleted) throw notFound('Template');
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'template.deleted', target: { type: 'template', id: deleted.id, label: deleted.name } });
  });
  forgetSource(id);
}
