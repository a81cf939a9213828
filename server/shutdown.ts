import type { Server } from 'node:http';
import type { Log } from './log';
import { stopRuntime, type Runtime } from './runtime';

/**
 * Copies of one signal: a terminal's Ctrl-C or a supervisor's stop reaches every process of the
 * group, and npm passes its own copy on to us, so one stop arrives here several times within
 * milliseconds. A second signal later than this is a person insisting.
 */
const SIGNAL_COPY_WINDOW_MS = 500;

const SIGNAL_NUMBERS: Record<string, number> = { SIGINT: 2, SIGTERM: 15 };

interface Parts {
  runtime: Runtime;
  server: Server | null;
  /** The SMTP listeners (bounce receiver, relay gateway): each stops taking connections and lets its sessions end. */
  smtp: Array<{ close(): Promise<void> }>;
  releaseLock: () => void;
}

/** Exits once the last log lines are out, or shortly anyway. */
function exit(log: Log, code: number): void {
  setTimeout(() => process.exit(code), 500);
  log.flush(() => process.exit(code));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * A graceful stop: take no new connections (HTTP, SMTP) nor new work, let what is in flight
 * finish within SHUTDOWN_GRACE_MS (requests answered, messages on the wire and their outcomes
 * recorded), hand back claimed work not started, leave the worker row so others take over at once,
 * close the database. Work still running at the deadline is cut off: its claims pass to the others.
 */
async function stopGracefully(parts: Parts, log: Log): Promise<void> {
  const { runtime, server, smtp } = parts;
  const graceMs = runtime.config.shutdownGraceMs;
  const deadline = performance.now() + graceMs;
  runtime.deps.claims.beginStopping(deadline);
  const closing = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
  server?.closeIdleConnections();
  const finished = (async () => {
    await Promise.all([closing, ...smtp.map((listener) => listener.close()), runtime.runner?.stop()]);
    return runtime.deps.claims.drained(deadline);
  })();
  const inTime = await Promise.race([finished, sleep(graceMs).then(() => false)]);
  if (!inTime) {
    log.warn({ graceMs, held: runtime.deps.claims.heldCount() }, 'shutdown: work still in flight at the deadline is cut off; other workers take it over');
    runtime.deps.claims.abandonInFlight();
    server?.closeAllConnections();
  }
  await stopRuntime(runtime);
  parts.releaseLock();
  log.info({ cutOff: !inTime }, 'stopped');
}

/**
 * SIGTERM and SIGINT: the first starts a graceful stop and exits 0 when it is done; its copies are
 * ignored; a later one exits at once.
 */
export function handleStopSignals(parts: Parts, log: Log): void {
  let first: { signal: string; at: number } | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (!first) {
      first = { signal, at: performance.now() };
      log.info({ signal, graceMs: parts.runtime.config.shutdownGraceMs }, `${signal}: stopping (again to stop at once)`);
      void stopGracefully(parts, log)
        .catch((error: unknown) => log.error({ err: error }, 'shutdown failed'))
        .finally(() => exit(log, 0));
      return;
    }
    if (performance.now() - first.at < SIGNAL_COPY_WINDOW_MS) return;
    log.warn({ signal }, `${signal} again: exiting now`);
    exit(log, 128 + (SIGNAL_NUMBERS[signal] ?? 1));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
