import type { templates, TemplateDraft } from '@/db/schema';
import type { DeclaredVariable } from './declared';

export type TemplateRow = typeof templates.$inferSelect;

/** `published`: what the template shows is what a send renders; `draft`: it was never published, or has changes waiting for a publish. */
export type TemplateStatus = 'published' | 'draft';

/** A template as the list shows it: no bodies (they may be megabytes each). */
export interface TemplateSummary {
  id: string;
  name: string;
  alias: string | null;
  subject: string;
  variables: string[];
  status: TemplateStatus;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TemplateView extends TemplateSummary {
  html: string | null;
  text: string | null;
  declaredVariables: DeclaredVariable[];
  from: string | null;
  replyTo: string[];
  drafts: boolean;
}

/**
 * What a template holds as last written: its draft when it has one (changes not published yet),
 * else its own content. This is what reads show, a PATCH starts from and a preview renders; a
 * send renders the row's own content (lookup.ts).
 */
export const latestContent = (row: TemplateRow): TemplateDraft => row.draft ?? row;

export const statusOf = (row: Pick<TemplateRow, 'publishedAt' | 'draft'>): TemplateStatus => (row.publishedAt === null || row.draft !== null ? 'draft' : 'published');

const iso = (at: Date | null) => (at ? at.toISOString() : null);

/** A list row: the latest subject and variables, read without the bodies (crud.ts's query). */
export interface SummaryRow {
  id: string;
  name: string;
  alias: string | null;
  subject: string;
  variables: string[];
  publishedAt: Date | null;
  hasDraft: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const summaryView = (row: SummaryRow): TemplateSummary => ({
  id: row.id,
  name: row.name,
  alias: row.alias,
  subject: row.subject,
  variables: row.variables,
  status: row.publishedAt === null || row.hasDraft ? 'draft' : 'published',
  publishedAt: iso(row.publishedAt),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export function templateView(row: TemplateRow): TemplateView {
  const latest = latestContent(row);
  return {
    id: row.id,
    name: row.name,
    alias: row.alias,
    subject: latest.subject,
    variables: latest.variables,
    status: statusOf(row),
    publishedAt: iso(row.publishedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    html: latest.html,
    text: latest.text,
    declaredVariables: latest.declaredVariables,
    from: latest.from ?? null,
    replyTo: latest.replyTo ?? [],
    drafts: row.drafts,
  };
}
