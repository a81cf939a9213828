// The words of a contact import (docs/contacts.md, "Imports"), shared by db/schema, the services,
// the routers and the dashboard. Imports nothing.

/**
 * Where an import is: `receiving` while its file is still arriving (never shown: its id is answered
 * only once the file is stored), `queued` until a worker takes it, `in_progress`, then `completed`
 * or `failed` (a refusal that stops it, such as the plan's contact cap).
 */
export const CONTACT_IMPORT_STATUSES = ['receiving', 'queued', 'in_progress', 'completed', 'failed'] as const;
export type ContactImportStatus = (typeof CONTACT_IMPORT_STATUSES)[number];

/** The statuses an answer shows. */
export const VISIBLE_IMPORT_STATUSES = ['queued', 'in_progress', 'completed', 'failed'] as const satisfies readonly ContactImportStatus[];

/** Resend's: what happens to a row whose address the organization already has. */
export const IMPORT_CONFLICT_MODES = ['upsert', 'skip'] as const;
export type ImportConflictMode = (typeof IMPORT_CONFLICT_MODES)[number];

/** What a yes in a subscription column means: the column lists who is subscribed, or who unsubscribed. */
export const SUBSCRIPTION_COLUMN_KINDS = ['subscribed', 'unsubscribed'] as const;
export type SubscriptionColumnKind = (typeof SUBSCRIPTION_COLUMN_KINDS)[number];

/** Rows an import lists with their reason (the first ones, in file order); the rest are counted. */
export const IMPORT_ERRORS_KEPT = 100;

/**
 * An import's columns, resolved from its `column_map` against the file when it was received: the
 * 0-based position of each column read, and the property each property column fills.
 */
export interface ImportColumns {
  email: number;
  name?: number;
  firstName?: number;
  lastName?: number;
  /** Resend's: a yes unsubscribes the contact from everything. */
  unsubscribed?: number;
  /** Ours: the subscription in the import's segments; `kind` says what a yes in it means. */
  subscription?: { column: number; kind: SubscriptionColumnKind };
  properties: Array<{ key: string; column: number }>;
}

/** A row an import did not store, by its line in the file, with the reason. */
export interface ImportRowError {
  row: number;
  email: string;
  error: string;
}

/**
 * The header the dashboard's upload carries (app/(dashboard)/contacts/imports/upload): a form on
 * another site can post a file with the person's cookie, but cannot set a header without the
 * browser asking first, which this service never allows.
 */
export const DASHBOARD_UPLOAD_HEADER = 'x-eumail-dashboard';

/** Where the dashboard uploads an import's file, with the person's session. */
export const DASHBOARD_UPLOAD_PATH = '/contacts/imports/upload';
