import { emailEvents, events } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../deps';
import { newId } from '../ids';

/** What an event of an email tells a webhook receiver about it, so no callback is needed. */
export interface EmailEventSubject {
  id: string;
  organizationId: string;
  mode?: string;
  from?: string;
  to?: string[];
  subject?: string;
  tags?: Array<{ name: string; value: string }>;
}

/**
 * Appends to an email's history and, in the same transaction, to the organization's event log
 * that webhooks deliver from: one call, so the two can never disagree.
 */
export async function recordEmailEvents(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  email: EmailEventSubject,
  list: Array<{ type: string; recipient?: string | null; data?: Record<string, unknown> }>,
): Promise<void> {
  if (list.length === 0) return;
  const at = deps.clock.now();
  await tx.insert(emailEvents).values(
    list.map((event) => ({
      id: newId(),
      emailId: email.id,
      organizationId: email.organizationId,
      type: event.type,
      recipient: event.recipient ?? null,
      data: event.data ?? {},
      createdAt: at,
    })),
  );
  const about = { emailId: email.id, mode: email.mode, from: email.from, to: email.to, subject: email.subject, tags: email.tags };
  await tx.insert(events).values(
    list.map((event) => ({
      id: newId(),
      organizationId: email.organizationId,
      type: event.type,
      data: JSON.parse(JSON.stringify({ ...about, ...(event.recipient ? { recipient: event.recipient } : {}), ...event.data })) as Record<string, unknown>,
      createdAt: at,
    })),
  );
}
