import { isEmailStatus } from './statuses';
import type { EmailStatus, ListEmailsInput } from './types';

/** The list's filters, as they stand in the URL (`/emails?status=queued&to=…&tag=…`) so links share them. */
export interface EmailFilters {
  status?: EmailStatus;
  /** One recipient address (to, cc or bcc), matched exactly, ignoring case. */
  to?: string;
  /** "name:value" or "name", several separated by commas or spaces (all must match). */
  tag?: string;
}

const text = (value: string | null) => value?.trim() || undefined;

/** Reads the filters from a query string; an unknown status is ignored rather than sent. */
export function parseFilters(params: { get(name: string): string | null }): EmailFilters {
  const status = params.get('status');
  return { status: isEmailStatus(status) ? status : undefined, to: text(params.get('to')), tag: text(params.get('tag')) };
}

/** The query string for a set of filters, empty ones left out ("" when none). */
export function filtersQuery(filters: EmailFilters): string {
  const params = new URLSearchParams();
  for (const key of ['status', 'to', 'tag'] as const) {
    const value = filters[key]?.trim();
    if (value) params.set(key, value);
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

export const hasFilters = (filters: EmailFilters) => Boolean(filters.status || filters.to || filters.tag);

export const tagList = (tag: string | undefined) => (tag ? tag.split(/[\s,]+/).filter(Boolean) : []);

/** The list call's input for these filters (the cursor is added page by page). */
export function listInput(filters: EmailFilters, limit: number): Omit<ListEmailsInput, 'cursor'> {
  const tags = tagList(filters.tag);
  return { limit, status: filters.status, to: filters.to, tag: tags.length > 0 ? tags : undefined };
}
