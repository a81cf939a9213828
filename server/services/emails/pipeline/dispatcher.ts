import type { Deps, Dispatchers } from '../../../deps';
import { Dispatcher } from '../../shared/dispatcher';
import { runClaimed } from './dispatch';
import { gatedDestinations, PER_DESTINATION } from './destinations';

/** Emails this process has in flight at once, all sweeps together: enough to keep many destinations busy. */
export const DISPATCH_CONCURRENCY = 32;

/**
 * The process's email dispatcher, built once with the runtime (server/runtime.ts) and handed in as
 * `deps.dispatchers.emails`: every sweep and durable function of the process shares its slots
 * (and each runtime has its own: tests give several workers one process).
 */
export const createEmailDispatcher = (deps: () => Deps): Dispatchers['emails'] =>
  new Dispatcher(
    { concurrency: DISPATCH_CONCURRENCY, perDestination: PER_DESTINATION },
    (row) => runClaimed(deps(), row),
    (row) => gatedDestinations(deps(), row),
  );
