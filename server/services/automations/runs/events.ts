import type { Db } from '@/db/client';
import type { Deps } from '../../../deps';
import { newId } from '../../../ids';
import { logEvents } from '../../shared/events';
import type { RunStatus } from '../../../vocabulary/automations';

/** What an `automation.run_*` event says of a run: enough for a webhook consumer to act without reading it back. */
export interface RunEventSubject {
  id: string;
  organizationId: string;
  automationId: string;
  contactId: string | null;
  contactEmail: string;
  test: boolean;
}

const TYPE_OF = { running: 'automation.run_started', completed: 'automation.run_completed', failed: 'automation.run_failed', cancelled: 'automation.run_cancelled' } as const;

/**
 * The runs' change of status in the organization's event log (and so to its webhooks), in the
 * transaction that changes it, one statement for many runs. A test run's events say `mode: test`,
 * as a test email's do, so only test reads and test endpoints see them.
 */
export async function logRunEvents(tx: Db, deps: Pick<Deps, 'clock' | 'jobs'>, status: RunStatus, runs: RunEventSubject[], detail: { reason?: string | null; error?: string | null } = {}): Promise<void> {
  const now = deps.clock.now();
  await logEvents(
    tx,
    deps,
    runs.map((run) => ({
      id: newId(),
      organizationId: run.organizationId,
      type: TYPE_OF[status],
      data: {
        runId: run.id,
        automationId: run.automationId,
        contactId: run.contactId,
        email: run.contactEmail,
        status,
        ...(detail.reason ? { reason: detail.reason } : {}),
        ...(detail.error ? { error: detail.error } : {}),
        mode: run.test ? 'test' : 'live',
      },
      createdAt: now,
    })),
  );
}
