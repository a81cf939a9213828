import { and, eq } from 'drizzle-orm';
import { formSubmissions } from '@/db/schema';
import type { Deps } from '../../deps';
import type { FormSubmissionStatus } from '../../vocabulary/forms';
import { fetchPage, type Page } from '../shared/pagination';
import type { Principal } from '../shared/principal';
import { ownForm } from './crud';

export interface FormSubmissionView {
  id: string;
  email: string;
  contactId: string | null;
  status: FormSubmissionStatus;
  /** The version of the consent text the person was shown. */
  formVersion: number;
  firstName: string | null;
  lastName: string | null;
  properties: Record<string, string | number | boolean>;
  createdAt: string;
}

/** A form's accepted submissions, newest first, in pages (the dashboard's table). */
export async function listFormSubmissions(deps: Pick<Deps, 'db'>, principal: Principal, formId: string, page: { limit: number; cursor?: string }): Promise<Page<FormSubmissionView>> {
  await ownForm(deps.db, principal, formId);
  const result = await fetchPage(formSubmissions.id, page, ({ where, orderBy, limit }) =>
    deps.db
      .select()
      .from(formSubmissions)
      .where(and(eq(formSubmissions.formId, formId), eq(formSubmissions.organizationId, principal.organizationId), where))
      .orderBy(orderBy)
      .limit(limit),
  );
  return {
    data: result.data.map((row) => ({
      id: row.id,
      email: row.email,
      contactId: row.contactId,
      status: row.status,
      formVersion: row.formVersion,
      firstName: row.values.firstName,
      lastName: row.values.lastName,
      properties: row.values.properties,
      createdAt: row.createdAt.toISOString(),
    })),
    nextCursor: result.nextCursor,
  };
}
