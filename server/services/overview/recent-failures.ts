import { and, desc, eq, inArray } from 'drizzle-orm';
import { emailEvents, emails } from '@/db/schema';
import type { Deps } from '../../deps';
import { BOUNCE_CLASSES, type BounceExplanation } from '../bounces/classify';
import type { EmailStatus } from '../../vocabulary/email-statuses';
import type { EmailEventType } from '../../vocabulary/event-types';
import type { Principal } from '../shared/principal';

/** How many failures the overview lists. */
export const RECENT_FAILURES = 5;

const FAILED_STATUSES = ['bounced', 'failed', 'complained'] as const satisfies readonly EmailStatus[];
type FailedStatus = (typeof FAILED_STATUSES)[number];
const FAILURE_EVENTS: EmailEventType[] = ['email.bounced', 'email.failed', 'email.complained'];

export interface RecentFailure {
  emailId: string;
  subject: string;
  status: FailedStatus;
  /** The recipient the failure is about (the email's first one when no event names it). */
  recipient: string | null;
  /** When the failure was recorded; the email's acceptance when no event is found. */
  at: Date;
  /** What the receiving server's answer means and what to do (docs/bounces.md); null when none was recorded. */
  bounce: BounceExplanation | null;
  /** The pipeline's own reason when there is no receiving server's answer to explain (no MX reached). */
  reason: string | null;
}

const isBounce = (value: unknown): value is BounceExplanation =>
  typeof value === 'object' &&
  value !== null &&
  (BOUNCE_CLASSES as readonly unknown[]).includes((value as BounceExplanation).class) &&
  typeof (value as BounceExplanation).explanation === 'string';

/**
 * The newest emails of one mode whose outcome is a failure (bounced, failed, complained), newest
 * failure first, each with the explanation of its last failure event. One short read per status
 * on the (organization, mode, status, id) index, then the few emails' events on theirs.
 */
export async function recentFailures(deps: Pick<Deps, 'db'>, principal: Pick<Principal, 'organizationId' | 'mode'>, limit = RECENT_FAILURES): Promise<RecentFailure[]> {
  const perStatus = await Promise.all(
    FAILED_STATUSES.map((status) =>
      deps.db
        .select({ id: emails.id, subject: emails.subject, status: emails.status, to: emails.to, createdAt: emails.createdAt })
        .from(emails)
        .where(and(eq(emails.organizationId, principal.organizationId), eq(emails.mode, principal.mode), eq(emails.status, status)))
        .orderBy(desc(emails.id))
        .limit(limit),
    ),
  );
  const candidates = perStatus
    .flat()
    .sort((a, b) => (a.id < b.id ? 1 : -1))
    .slice(0, limit);
  if (candidates.length === 0) return [];
  const failureEvents = await deps.db
    .select({ emailId: emailEvents.emailId, recipient: emailEvents.recipient, data: emailEvents.data, createdAt: emailEvents.createdAt })
    .from(emailEvents)
    .where(
      and(
        inArray(
          emailEvents.emailId,
          candidates.map((email) => email.id),
        ),
        eq(emailEvents.organizationId, principal.organizationId),
        inArray(emailEvents.type, FAILURE_EVENTS),
      ),
    )
    .orderBy(desc(emailEvents.id));
  const lastEvent = new Map<string, (typeof failureEvents)[number]>();
  for (const event of failureEvents) if (!lastEvent.has(event.emailId)) lastEvent.set(event.emailId, event);
  return candidates
    .map((email) => {
      const event = lastEvent.get(email.id);
      const reason = event?.data.reason;
      return {
        emailId: email.id,
        subject: email.subject,
        status: email.status as FailedStatus,
        recipient: event?.recipient ?? email.to[0] ?? null,
        at: event?.createdAt ?? email.createdAt,
        bounce: isBounce(event?.data.bounce) ? event.data.bounce : null,
        reason: typeof reason === 'string' ? reason : null,
      };
    })
    .sort((a, b) => b.at.getTime() - a.at.getTime());
}
