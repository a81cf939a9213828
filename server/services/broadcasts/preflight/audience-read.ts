import { and, eq, exists, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import { audiences, broadcasts, contacts, emailEvents, emails, suppressions } from '@/db/schema';
import type { Db } from '@/db/client';
import type { EmailStatus } from '../../emails/statuses';
import type { EmailEventType } from '../../shared/event-types';
import type { AudienceCounts } from './audience-quality';
import type { PreflightBroadcast } from './broadcast-read';

/** A message the person received: queued, cancelled, bounced or failed ones never reached them. */
const RECEIVED: EmailStatus[] = ['sent', 'delivered', 'complained'];
const ENGAGED: EmailEventType[] = ['email.opened', 'email.clicked'];

/**
 * The audience's subscribed contacts, and how many are suppressed or never engaged, in one
 * set-based statement however large the audience. A contact belongs to one audience, so its
 * broadcast messages are those of the broadcasts to that audience: the emails are found through
 * the (broadcast, contact) index from those few broadcasts, not searched by contact. Only
 * messages that tracked opens or clicks can tell that nobody engaged, so untracked ones are not
 * held against anyone.
 */
export function audienceCountsQuery(db: Db, organizationId: string, audienceId: string, broadcastId: string) {
  const earlierBroadcasts = db
    .select({ id: broadcasts.id })
    .from(broadcasts)
    .where(and(eq(broadcasts.organizationId, organizationId), eq(broadcasts.audienceId, audienceId), ne(broadcasts.id, broadcastId)));
  const engagement = db
    .select({ id: emailEvents.id })
    .from(emailEvents)
    .where(and(eq(emailEvents.emailId, emails.id), inArray(emailEvents.type, ENGAGED)));
  const received = db.$with('received').as(
    db
      .select({ contactId: emails.contactId, engaged: sql<boolean>`bool_or(${exists(engagement)})`.as('engaged') })
      .from(emails)
      .where(
        and(
          isNotNull(emails.broadcastId),
          inArray(emails.broadcastId, earlierBroadcasts),
          inArray(emails.status, RECEIVED),
          or(eq(emails.trackOpens, true), eq(emails.trackClicks, true)),
        ),
      )
      .groupBy(emails.contactId),
  );
  return db
    .with(received)
    .select({
      subscribed: sql<number>`count(*)::int`,
      suppressed: sql<number>`count(${suppressions.id})::int`,
      unengaged: sql<number>`count(*) filter (where ${suppressions.id} is null and not ${received.engaged})::int`,
    })
    .from(contacts)
    .leftJoin(suppressions, and(eq(suppressions.organizationId, organizationId), eq(suppressions.email, contacts.email)))
    .leftJoin(received, eq(received.contactId, contacts.id))
    .where(and(eq(contacts.audienceId, audienceId), eq(contacts.subscribed, true)));
}

/** The broadcast's audience as audience_quality judges it; null when it has none any more. */
export async function audienceCounts(db: Db, organizationId: string, broadcast: PreflightBroadcast): Promise<AudienceCounts | null> {
  if (broadcast.audienceId === null) return null;
  const [audience] = await db
    .select({ name: audiences.name })
    .from(audiences)
    .where(and(eq(audiences.id, broadcast.audienceId), eq(audiences.organizationId, organizationId)));
  if (!audience) return null;
  const [row] = await audienceCountsQuery(db, organizationId, broadcast.audienceId, broadcast.id);
  return { name: audience.name, subscribed: row?.subscribed ?? 0, suppressed: row?.suppressed ?? 0, unengaged: row?.unengaged ?? 0 };
}
