import { and, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { formSubmissions, organizations } from '@/db/schema';

/**
 * Submissions older than `cutoff` of the organizations on `planIds`, deleted: the retention sweep
 * calls it with each log retention's plans (docs/consent.md, "What is kept"). A submission list is
 * a log of sign-ups, kept as the event log is; the proof of consent is the ledger, which stays.
 * Answers how many went.
 */
export async function deleteFormSubmissionsBefore(db: Db, cutoff: Date, planIds: string[]): Promise<number> {
  const deleted = await db
    .delete(formSubmissions)
    .where(and(lt(formSubmissions.createdAt, cutoff), sql`${formSubmissions.organizationId} in (select ${organizations.id} from ${organizations} where ${inArray(organizations.plan, planIds)})`))
    .returning({ id: formSubmissions.id });
  return deleted.length;
}
