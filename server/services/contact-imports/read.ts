import { and, eq, inArray } from 'drizzle-orm';
import { contactImports } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import { VISIBLE_IMPORT_STATUSES } from '../../vocabulary/contact-imports';
import { fetchPage, type Page } from '../shared/pagination';
import type { Principal } from '../shared/principal';
import { importView, type ContactImportView } from './view';

const visible = inArray(contactImports.status, [...VISIBLE_IMPORT_STATUSES]);

/** `GET /contacts/imports/{id}`: the organization's import, or 404 (another's, or one still arriving). */
export async function getContactImport(deps: Pick<Deps, 'db'>, principal: Principal, id: string): Promise<ContactImportView> {
  const [row] = await deps.db
    .select()
    .from(contactImports)
    .where(and(eq(contactImports.id, id), eq(contactImports.organizationId, principal.organizationId), visible));
  if (!row) throw notFound('Contact import');
  return importView(row);
}

/** `GET /contacts/imports`: newest first, in cursor pages, without their rows' errors (read one for them). */
export async function listContactImports(deps: Pick<Deps, 'db'>, principal: Principal, page: { limit: number; cursor?: string }): Promise<Page<Omit<ContactImportView, 'errors'>>> {
  const rows = await fetchPage(contactImports.id, page, ({ where, orderBy, limit }) =>
    deps.db
      .select()
      .from(contactImports)
      .where(and(eq(contactImports.organizationId, principal.organizationId), visible, where))
      .orderBy(orderBy)
      .limit(limit),
  );
  return { data: rows.data.map((row) => withoutErrors(importView(row))), nextCursor: rows.nextCursor };
}

function withoutErrors(view: ContactImportView): Omit<ContactImportView, 'errors'> {
  const { errors: _errors, ...rest } = view;
  return rest;
}
