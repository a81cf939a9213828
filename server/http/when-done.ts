import type { ServerResponse } from 'node:http';

/** What became of a request: its status (499 when the client went away first) and how long it took. */
export interface RequestOutcome {
  status: number;
  elapsedMs: number;
}

/**
 * Calls `done` once, when the answer is out or the client went away (whichever Node reports
 * first: a finished response also closes), timed from this call.
 */
export function whenDone(res: ServerResponse, done: (outcome: RequestOutcome) => void): void {
  const started = performance.now();
  let called = false;
  const finish = () => {
    if (called) return;
    called = true;
    done({ status: res.writableFinished ? res.statusCode : 499, elapsedMs: performance.now() - started });
  };
  res.once('finish', finish);
  res.once('close', finish);
}
