import type { Runtime } from './runtime';

const RUNTIME_KEY = Symbol.for('eumail.runtime');

/**
 * Next bundles its route handlers apart from the entry server's modules, so the one runtime of
 * the process is shared through globalThis rather than a module variable. This file imports
 * nothing at run time, so route handlers can read the runtime without bundling its makers.
 */
export function setRuntime(runtime: Runtime | null): void {
  (globalThis as Record<symbol, unknown>)[RUNTIME_KEY] = runtime;
}

export function getRuntime(): Runtime {
  const runtime = (globalThis as Record<symbol, unknown>)[RUNTIME_KEY] as Runtime | undefined;
  if (!runtime) throw new Error('The runtime is not started: run the service through server/main.ts');
  return runtime;
}
