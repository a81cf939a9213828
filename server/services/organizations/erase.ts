import { and, eq, isNotNull, lte } from 'drizzle-orm';
import { organizations, rateLimitBuckets, systemEmails } from '@/db/schema';
import type { Deps } from '../../deps';

/**
 * Erases one organization whose grace period has passed, in one transaction. Deleting its row
 * takes every row that names it: by foreign key (cascade) its keys, domains, webhooks and their
 * deliveries, DKIM keys (those of its deleted domains too, which name no domain: migration 0028),
 * audiences and contacts, suppressions, templates, broadcasts, usage, members, invitations,
 * confirmation links, audit log and export; by statement trigger (migration 0021) its emails with
 * their recipients, history and attachments, and its event log. What is not tied to it by a key
 * goes first: the service's own mail to it, its rate-limit window. People stay: an account is the
 * person's, and may belong to other organizations.
 */
async function eraseOrganization(deps: Pick<Deps, 'db' | 'clock'>, id: string): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [due] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(and(eq(organizations.id, id), isNotNull(organizations.deletionRequestedAt), lte(organizations.eraseAfter, deps.clock.now())))
      .for('update');
    // Cancelled (or erased by another worker) since it was found.
    if (!due) return false;
    await tx.delete(systemEmails).where(eq(systemEmails.organizationId, id));
    await tx.delete(rateLimitBuckets).where(eq(rateLimitBuckets.key, `org:${id}`));
    await tx.delete(organizations).where(eq(organizations.id, id));
    return true;
  });
}

/** The hourly sweep's step (emails/retention.ts): every organization past its grace period, one transaction each. */
export async function eraseDeletedOrganizations(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  const due = await deps.db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(isNotNull(organizations.deletionRequestedAt), lte(organizations.eraseAfter, deps.clock.now())));
  let erased = 0;
  for (const { id } of due) if (await eraseOrganization(deps, id)) erased += 1;
  return erased;
}
