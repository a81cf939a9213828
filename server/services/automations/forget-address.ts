import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { automationEmails, automationRuns, receivedEvents } from '@/db/schema';

/**
 * An erased address (GDPR Art. 17) taken out of automations: its runs (with their steps' history by
 * cascade), the record of the emails they sent (`emailIds`, the address's emails being erased:
 * the record outlives a run retention deleted, so it goes by its email too) and the events sent for it are deleted. The
 * runs' `automation.run_*` entries in the event log name it and go with the log's erasure. Answers
 * how many rows went.
 */
export async function forgetAddressInAutomations(tx: Db, organizationId: string, address: string, emailIds: readonly string[]): Promise<number> {
  const runs = await tx
    .delete(automationRuns)
    .where(and(eq(automationRuns.organizationId, organizationId), eq(automationRuns.contactEmail, address)))
    .returning({ id: automationRuns.id });
  const runIds = runs.map((run) => run.id);
  // By run, and by email for the records whose run retention took already.
  if (runIds.length > 0) await tx.delete(automationEmails).where(inArray(automationEmails.runId, runIds));
  if (emailIds.length > 0) await tx.delete(automationEmails).where(and(eq(automationEmails.organizationId, organizationId), inArray(automationEmails.emailId, emailIds)));
  const received = await tx
    .delete(receivedEvents)
    .where(and(eq(receivedEvents.organizationId, organizationId), eq(receivedEvents.email, address)))
    .returning({ id: receivedEvents.id });
  return runs.length + received.length;
}
