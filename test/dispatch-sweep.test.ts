import { describe, expect, it } from 'vitest';
import { webhookDeliveries } from '@/db/schema';
import { sweepWithDispatcher } from '@/server/services/shared/dispatch-sweep';
import { Dispatcher } from '@/server/services/shared/dispatcher';
import type { WorkerClaims } from '@/server/services/shared/claims/worker';

/*
 * Several sweeps of one process share its dispatcher (the runner's, and durable functions'). Here
 * the claims come from an in-memory queue that answers after a round trip's delay, so what is
 * checked is the sweeps' own arithmetic: how much each asks for while the others ask too.
 */

const CONCURRENCY = 8;

interface Row {
  id: string;
  destination: string;
}

function world(rowCount: number) {
  const due: Row[] = Array.from({ length: rowCount }, (_, i) => ({ id: `row-${i}`, destination: 'mx.example.net' }));
  const handled: string[] = [];
  const released: string[] = [];
  let promised = 0;
  let mostPromised = 0;
  const dispatcher = new Dispatcher<Row, string>(
    { concurrency: CONCURRENCY, perDestination: CONCURRENCY },
    async (row) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      handled.push(row.id);
      return 'delivered';
    },
    (row) => [row.destination],
  );
  // What the sweep uses of the process's claims: whether it is stopping, and handing rows back.
  const claims = {
    stopping: false,
    release: async (_table: unknown, ids: Iterable<string>) => void released.push(...ids),
  } as unknown as WorkerClaims;
  const sweep = () =>
    sweepWithDispatcher({
      claims,
      table: webhookDeliveries,
      dispatcher,
      claimDue: async (limit: number) => {
        // Slots asked for by claims under way, beside those already running or waiting.
        promised += limit;
        mostPromised = Math.max(mostPromised, promised + dispatcher.inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        promised -= limit;
        return due.splice(0, limit);
      },
      outcomeOf: (result: string) => result,
    });
  return { sweep, handled, released, mostPromised: () => mostPromised };
}

describe('sweeps sharing a dispatcher', () => {
  it('never ask together for more rows than the process has free slots, so none waits to be given back', async () => {
    const { sweep, handled, released, mostPromised } = world(200);
    const reports = await Promise.all([sweep(), sweep(), sweep(), sweep()]);
    expect(reports.reduce((sum, report) => sum + report.handled, 0)).toBe(200);
    expect(new Set(handled).size).toBe(200);
    expect(handled).toHaveLength(200);
    expect(mostPromised()).toBeLessThanOrEqual(CONCURRENCY);
    expect(released).toEqual([]);
  });
});
