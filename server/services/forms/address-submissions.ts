import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { formSubmissions, forms } from '@/db/schema';
import type { FormSubmissionStatus } from '../../vocabulary/forms';

/** A submission as a data subject's export lists it (docs/privacy.md): everything the row holds about the person. */
export interface AddressSubmission {
  id: string;
  formId: string;
  formName: string;
  status: FormSubmissionStatus;
  /** The version of the form's consent text the person was shown. */
  consentVersion: number;
  values: { firstName: string | null; lastName: string | null; properties: Record<string, string | number | boolean> };
  clientAddress: string | null;
  userAgent: string | null;
  createdAt: string;
}

/** The address's submissions of the organization's forms, oldest first (a form's deletion takes its own). */
export async function formSubmissionsOfAddress(db: Db, organizationId: string, address: string): Promise<AddressSubmission[]> {
  const rows = await db
    .select({ submission: formSubmissions, formName: forms.name })
    .from(formSubmissions)
    .innerJoin(forms, eq(forms.id, formSubmissions.formId))
    .where(and(eq(formSubmissions.organizationId, organizationId), eq(formSubmissions.email, address)))
    .orderBy(asc(formSubmissions.id));
  return rows.map(({ submission, formName }) => ({
    id: submission.id,
    formId: submission.formId,
    formName,
    status: submission.status,
    consentVersion: submission.formVersion,
    values: submission.values,
    clientAddress: submission.clientAddress,
    userAgent: submission.userAgent,
    createdAt: submission.createdAt.toISOString(),
  }));
}
