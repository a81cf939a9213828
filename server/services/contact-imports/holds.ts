import { and, inArray, sql } from 'drizzle-orm';
import { contactImports } from '@/db/schema';
import { registerAudienceHold } from '../audiences/holds';

// A segment an import is still filling cannot be deleted: its next batch would have nowhere to go.
registerAudienceHold(async (tx, audienceId) => {
  const [held] = await tx
    .select({ id: contactImports.id })
    .from(contactImports)
    .where(and(inArray(contactImports.status, ['queued', 'in_progress']), sql`${contactImports.segmentIds} @> ${JSON.stringify([audienceId])}::jsonb`))
    .limit(1);
  return held ? `the contact import ${held.id} is adding contacts to it; wait for it to finish` : null;
});

export {};
