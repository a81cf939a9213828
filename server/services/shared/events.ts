import { events } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { newId } from '../../ids';
import type { EventType } from './event-types';

/** Records what happened, in the caller's transaction; webhooks deliver from this log. */
export async function recordEvent(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  input: { organizationId: string; type: EventType; data: Record<string, unknown> },
): Promise<void> {
  await tx.insert(events).values({ id: newId(), organizationId: input.organizationId, type: input.type, data: input.data, createdAt: deps.clock.now() });
}
