import { emailEvents } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../deps';
import { newId } from '../ids';

/** Appends to an email's history, in the caller's transaction. */
export async function recordEmailEvents(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  email: { id: string; organizationId: string },
  events: Array<{ type: string; recipient?: string | null; data?: Record<string, unknown> }>,
): Promise<void> {
  if (events.length === 0) return;
  const at = deps.clock.now();
  await tx.insert(emailEvents).values(
    events.map((event) => ({
      id: newId(),
      emailId: email.id,
      organizationId: email.organizationId,
      type: event.type,
      recipient: event.recipient ?? null,
      data: event.data ?? {},
      createdAt: at,
    })),
  );
}
