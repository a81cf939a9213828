import { and, eq, sql } from 'drizzle-orm';
import { templates, type TemplateDraft } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { conflict, notFound, validationError } from '../../errors';
import { isUniqueViolation } from '@/db/unique-violation';
import { newId } from '../../ids';
import { fetchPage, type Page } from '../shared/pagination';
import type { Principal } from '../shared/principal';
import { byPrincipal, recordAudit } from '../audit/record';
import { recordTemplateUpdated } from './audit';
import { checkDeclared, type DeclaredVariable } from './declared';
import { refuseTemplateInUse } from './in-use';
import { TEMPLATE_LIMITS } from './limits';
import { parseTemplate, type ParsedTemplate, type TemplateSource } from './parse';
import { forgetSource, rememberSource } from './sources';
import { latestContent, summaryView, templateView, type TemplateRow, type TemplateSummary, type TemplateView } from './view';

export type { TemplateRow, TemplateSummary, TemplateView } from './view';

export interface CreateTemplateInput {
  name: string;
  subject: string;
  html?: string;
  text?: string;
  /** Resend's declared variables. */
  variables?: DeclaredVariable[];
  /** Changes wait for a publish, and the template cannot be sent before its first (Resend's way). */
  draft?: boolean;
  /** The sender and reply-to addresses a send by the template uses when it gives none (Resend's). */
  from?: string;
  replyTo?: string[];
  /** Resend's alias: another name, unique within the organization. */
  alias?: string;
}

/** Any of the fields; `null` removes the html or text part (one of them must remain), or every declared variable. */
export interface UpdateTemplateInput {
  name?: string;
  subject?: string;
  html?: string | null;
  text?: string | null;
  variables?: DeclaredVariable[] | null;
  /** `null` removes the default sender, reply-to addresses or alias. */
  from?: string | null;
  replyTo?: string[] | null;
  alias?: string | null;
}

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
  checkDeclared(source.declaredVariables ?? []);
  return parseTemplate(source);
}

/** What a send by the template takes from it when the send gives none: drafted with the content, as Resend versions them. */
interface SendingDefaults {
  from: string | null;
  replyTo: string[];
}

/** A template's content as stored, its variables found. */
function contentOf(source: Required<TemplateSource> & SendingDefaults): TemplateDraft {
  const parsed = checkTemplate(source);
  return { subject: source.subject, html: source.html, text: source.text, variables: parsed.variables, declaredVariables: source.declaredVariables, from: source.from, replyTo: source.replyTo };
}

const sameContent = (a: TemplateDraft, b: TemplateDraft) =>
  a.subject === b.subject &&
  a.html === b.html &&
  a.text === b.text &&
  JSON.stringify(a.declaredVariables) === JSON.stringify(b.declaredVariables) &&
  (a.from ?? null) === (b.from ?? null) &&
  JSON.stringify(a.replyTo ?? []) === JSON.stringify(b.replyTo ?? []);

const aliasTaken = (alias: string) => conflict(`alias: "${alias}" is already another template's alias`);

/** A write that may meet the alias index: another template's alias is a 409, not a fault. */
async function claimingAlias<T>(alias: string | null | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (alias && isUniqueViolation(error)) throw aliasTaken(alias);
    throw error;
  }
}

/** A change's time: at least a millisecond after the last, even when the clock has not moved, so that with the id it names one version. */
export const nextVersion = (deps: Pick<Deps, 'clock'>, current: Pick<TemplateRow, 'updatedAt'>) => new Date(Math.max(deps.clock.now().getTime(), current.updatedAt.getTime() + 1));

/**
 * A new template. Without drafts it can be sent at once and every change is sent at once (the
 * spec's way); with `draft: true` it cannot be sent until published, and changes wait for the
 * next publish (Resend's).
 */
export async function createTemplate(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, input: CreateTemplateInput): Promise<TemplateView> {
  const content = contentOf({ subject: input.subject, html: input.html ?? null, text: input.text ?? null, declaredVariables: input.variables ?? [], from: input.from ?? null, replyTo: input.replyTo ?? [] });
  const drafts = input.draft === true;
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    const [created] = await claimingAlias(input.alias, () =>
      tx
        .insert(templates)
        .values({ id: newId(), organizationId: principal.organizationId, name: input.name, alias: input.alias ?? null, ...content, from: content.from ?? null, replyTo: content.replyTo ?? [], drafts, publishedAt: drafts ? null : now, createdAt: now, updatedAt: now })
        .returning(),
    );
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'template.created', target: { type: 'template', id: created!.id, label: created!.name } });
    return created!;
  });
  rememberSource(row);
  return templateView(row);
}

/** The organization's templates, newest first, in cursor pages: each as last written (a draft's subject and variables), without bodies. */
export async function listTemplates(deps: Pick<Deps, 'db'>, principal: Principal, query: { limit: number; cursor?: string }): Promise<Page<TemplateSummary>> {
  const page = await fetchPage(templates.id, query, ({ where, orderBy, limit }) =>
    deps.db
      .select({
        id: templates.id,
        name: templates.name,
        alias: templates.alias,
        subject: templates.subject,
        variables: templates.variables,
        // Only the draft's subject and variables: its bodies may be megabytes.
        draftSubject: sql<string | null>`${templates.draft}->>'subject'`,
        draftVariables: sql<string | null>`(${templates.draft}->'variables')::text`,
        hasDraft: sql<boolean>`${templates.draft} is not null`,
        publishedAt: templates.publishedAt,
        createdAt: templates.createdAt,
        updatedAt: templates.updatedAt,
      })
      .from(templates)
      .where(and(eq(templates.organizationId, principal.organizationId), where))
      .orderBy(orderBy)
      .limit(limit),
  );
  return {
    data: page.data.map(({ draftSubject, draftVariables, ...row }) =>
      summaryView({ ...row, subject: draftSubject ?? row.subject, variables: draftVariables === null ? row.variables : (JSON.parse(draftVariables) as string[]) }),
    ),
    nextCursor: page.nextCursor,
  };
}

export async function getTemplate(deps: Pick<Deps, 'db'>, principal: Principal, id: string): Promise<TemplateView> {
  return templateView(await ownTemplate(deps.db, principal, id));
}

/**
 * Changes any of the fields and finds the variables again. A template without drafts sends the
 * change at once (the spec's PATCH), as does one with drafts never published (nothing of it is
 * sent yet); a published template with drafts keeps the change as its draft, sent once published
 * (publish.ts). `updatedAt` moves forward on every change (nextVersion): with the id it names the
 * version that parsed copies are cached under, in every process.
 */
export async function updateTemplate(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string, input: UpdateTemplateInput): Promise<TemplateView> {
  const row = await deps.db.transaction(async (tx) => {
    const current = await ownTemplate(tx, principal, id, true);
    const latest = latestContent(current);
    const content = contentOf({
      subject: input.subject ?? latest.subject,
      html: input.html === undefined ? latest.html : input.html,
      text: input.text === undefined ? latest.text : input.text,
      declaredVariables: input.variables === undefined ? latest.declaredVariables : (input.variables ?? []),
      from: input.from === undefined ? (latest.from ?? null) : input.from,
      replyTo: input.replyTo === undefined ? (latest.replyTo ?? []) : (input.replyTo ?? []),
    });
    const updatedAt = nextVersion(deps, current);
    const changesContent = [input.subject, input.html, input.text, input.variables, input.from, input.replyTo].some((field) => field !== undefined);
    const keepsDraft = current.drafts && current.publishedAt !== null;
    const change = keepsDraft
      ? // Back to what is published is no draft.
        { draft: sameContent(content, current) ? null : content }
      : { ...content, ...(changesContent && !current.drafts ? { publishedAt: updatedAt } : {}) };
    const alias = input.alias === undefined ? current.alias : input.alias;
    const [updated] = await claimingAlias(alias, () =>
      tx
        .update(templates)
        .set({ name: input.name ?? current.name, alias, ...change, updatedAt })
        .where(eq(templates.id, current.id))
        .returning(),
    );
    await recordTemplateUpdated(tx, deps, principal, current, updated!);
    return updated!;
  });
  rememberSource(row);
  return templateView(row);
}

export async function deleteTemplate(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await refuseTemplateInUse(tx, principal.organizationId, id);
    const [deleted] = await tx
      .delete(templates)
      .where(and(eq(templates.id, id), eq(templates.organizationId, principal.organizationId)))
      .returning({ id: templates.id, name: templates.name });
    if (!deleted) throw notFound('Template');
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'template.deleted', target: { type: 'template', id: deleted.id, label: deleted.name } });
  });
  forgetSource(id);
}
