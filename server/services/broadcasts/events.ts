import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { recordEvent } from '../shared/events';
import type { EventType } from '../../vocabulary/event-types';
import { countsOf, type BroadcastRow } from './view';

type BroadcastEvent = Extract<EventType, `broadcast.${string}`>;

/** A change of a broadcast's state, for webhooks: what a receiver needs without calling back. */
export async function recordBroadcastEvent(tx: Db, deps: Pick<Deps, 'clock' | 'jobs'>, row: BroadcastRow, type: BroadcastEvent, extra: Record<string, unknown> = {}): Promise<void> {
  await recordEvent(tx, deps, {
    organizationId: row.organizationId,
    type,
    data: {
      broadcastId: row.id,
      mode: 'live',
      name: row.name,
      audienceId: row.audienceId,
      status: row.status,
      ...(row.heldReason ? { heldReason: row.heldReason } : {}),
      ...(row.failedReason ? { failedReason: row.failedReason } : {}),
      ...(row.scheduledAt ? { scheduledAt: row.scheduledAt.toISOString() } : {}),
      counts: countsOf(row),
      ...extra,
    },
  });
}
