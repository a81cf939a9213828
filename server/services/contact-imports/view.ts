import type { contactImports } from '@/db/schema';
import type { ImportConflictMode, ImportRowError } from '../../vocabulary/contact-imports';

export type ContactImportRow = typeof contactImports.$inferSelect;
export type VisibleImportStatus = 'queued' | 'in_progress' | 'completed' | 'failed';

/** An import as the API answers it (docs/contacts.md, "Imports"). */
export interface ContactImportView {
  id: string;
  status: VisibleImportStatus;
  fileName: string | null;
  segments: string[];
  onConflict: ImportConflictMode;
  /** The organization declared that every row's person confirmed their consent (`confirmed_consent`): each imported contact got a `confirmed` ledger entry naming the import. */
  confirmedConsent: boolean;
  counts: { total: number; created: number; updated: number; skipped: number; failed: number };
  /** The first rows not stored, in file order; `counts.failed` counts them all. */
  errors: ImportRowError[];
  /** What stopped a failed import. */
  failure: { error: string; code: string } | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

export function importView(row: ContactImportRow): ContactImportView {
  return {
    id: row.id,
    // A receiving import is never read: its id is not answered until it is queued.
    status: row.status as VisibleImportStatus,
    fileName: row.fileName,
    segments: row.segmentIds,
    onConflict: row.onConflict,
    confirmedConsent: row.confirmedConsent,
    counts: { total: row.total, created: row.created, updated: row.updated, skipped: row.skipped, failed: row.failed },
    errors: row.errors,
    failure: row.failure ? { error: row.failure.error, code: row.failure.code } : null,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}
