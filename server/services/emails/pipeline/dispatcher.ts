import type { Deps } from '../../../deps';
import type { WorkerClaims } from '../../shared/claims/worker';
import { Dispatcher } from '../../shared/dispatcher';
import { gatedDestinations, PER_DESTINATION } from './destinations';
import type { ClaimedEmail, DispatchResult } from './types';

/** Emails this process has in flight at once, all sweeps together: enough to keep many destinations busy. */
export const DISPATCH_CONCURRENCY = 32;

export type EmailDispatcher = Dispatcher<ClaimedEmail, DispatchResult>;

const dispatchers = new WeakMap<WorkerClaims, EmailDispatcher>();

/** The process's email dispatcher (one per worker: tests give several workers one process). */
export function dispatcherOf(deps: Deps, run: (deps: Deps, row: ClaimedEmail) => Promise<DispatchResult>): EmailDispatcher {
  let dispatcher = dispatchers.get(deps.claims);
  if (!dispatcher) {
    dispatcher = new Dispatcher(
      { concurrency: DISPATCH_CONCURRENCY, perDestination: PER_DESTINATION },
      (row) => run(deps, row),
      (row) => gatedDestinations(deps, row),
    );
    dispatchers.set(deps.claims, dispatcher);
  }
  return dispatcher;
}
